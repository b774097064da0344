import { MacrosManager } from "@/components/settings/macros-manager";
import { PageHeader } from "@/components/ui/page-header";
import { listMacros } from "@/lib/automations/macros";
import { loadAutomationChoices } from "@/lib/automations/choices";
import { requireSession } from "@/lib/auth/current-user";
import { collectPages } from "@/lib/platform/pagination";

export const metadata = { title: "Macros" };

export default async function MacrosPage() {
  const session = await requireSession();
  const [macros, choices] = await Promise.all([collectPages((cursor) => listMacros({ ctx: session, limit: 100, cursor })), loadAutomationChoices({ ctx: session })]);
  return (
    <>
      <PageHeader title="Macros" description="A macro does several things to a conversation in one click: label, assign, reply, note, snooze or close. Run one from a conversation's Macros menu." />
      <MacrosManager macros={macros} choices={choices} me={{ id: session.user.id, role: session.user.role }} />
    </>
  );
}
