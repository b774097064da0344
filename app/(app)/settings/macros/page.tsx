import { getTranslations } from "next-intl/server";
import { MacrosManager } from "@/components/settings/macros-manager";
import { PageHeader } from "@/components/ui/page-header";
import { listMacros } from "@/lib/automations/macros";
import { loadAutomationChoices } from "@/lib/automations/choices";
import { requireSession } from "@/lib/server/session";
import { collectPages } from "@/lib/platform/pagination";

export async function generateMetadata() {
  return { title: (await getTranslations("settingsMacros"))("title") };
}

export default async function MacrosPage() {
  const session = await requireSession();
  const [macros, choices, t] = await Promise.all([collectPages((cursor) => listMacros({ ctx: session, limit: 100, cursor })), loadAutomationChoices({ ctx: session }), getTranslations("settingsMacros")]);
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      <MacrosManager macros={macros} choices={choices} me={{ id: session.user.id, role: session.user.role }} />
    </>
  );
}
