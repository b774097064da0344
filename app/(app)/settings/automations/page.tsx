import { getTranslations } from "next-intl/server";
import { AutomationsBuilder } from "@/components/settings/automations-builder";
import { PageHeader } from "@/components/ui/page-header";
import { listAutomationsInOrder } from "@/lib/automations/automations";
import { loadAutomationChoices } from "@/lib/automations/choices";
import { requireSession } from "@/lib/server/session";

export async function generateMetadata() {
  return { title: (await getTranslations("settingsAutomations"))("title") };
}

export default async function AutomationsPage() {
  const session = await requireSession();
  const [rules, choices, t] = await Promise.all([listAutomationsInOrder({ ctx: session }), loadAutomationChoices({ ctx: session }), getTranslations("settingsAutomations")]);
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      <AutomationsBuilder rules={rules} choices={choices} canEdit={session.user.role === "admin"} />
    </>
  );
}
