import { getTranslations } from "next-intl/server";
import { AssistantSettingsForm } from "@/components/settings/assistant-settings-form";
import { PageHeader } from "@/components/ui/page-header";
import { getAssistantConfig } from "@/lib/assistant/settings";
import { requireSession } from "@/lib/server/session";

export async function generateMetadata() {
  return { title: (await getTranslations("settingsAssistant"))("title") };
}

export default async function AssistantSettingsPage() {
  const session = await requireSession();
  const [config, t] = await Promise.all([getAssistantConfig({ ctx: session }), getTranslations("settingsAssistant")]);
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      <AssistantSettingsForm config={config} canEdit={session.user.role === "admin"} />
    </>
  );
}
