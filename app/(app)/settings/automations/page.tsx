import { AutomationsBuilder } from "@/components/settings/automations-builder";
import { PageHeader } from "@/components/ui/page-header";
import { listAutomationsInOrder } from "@/lib/automations/automations";
import { loadAutomationChoices } from "@/lib/automations/choices";
import { requireSession } from "@/lib/auth/current-user";

export const metadata = { title: "Automations" };

export default async function AutomationsPage() {
  const session = await requireSession();
  const [rules, choices] = await Promise.all([listAutomationsInOrder({ ctx: session }), loadAutomationChoices({ ctx: session })]);
  return (
    <>
      <PageHeader
        title="Automations"
        description="Rules that act the moment something happens: when a message arrives, a conversation starts, is assigned, closed or reopened, or an SLA target is missed, and every condition holds, the actions run in order. Rules run top to bottom; what a rule does never sets off another rule."
      />
      <AutomationsBuilder rules={rules} choices={choices} canEdit={session.user.role === "admin"} />
    </>
  );
}
