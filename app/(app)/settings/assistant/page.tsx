import { AssistantSettingsForm } from "@/components/settings/assistant-settings-form";
import { PageHeader } from "@/components/ui/page-header";
import { getAssistantConfig } from "@/lib/assistant/settings";
import { requireSession } from "@/lib/auth/current-user";

export const metadata = { title: "Answer assistant" };

export default async function AssistantSettingsPage() {
  const session = await requireSession();
  const config = await getAssistantConfig({ ctx: session });
  return (
    <>
      <PageHeader
        title="Answer assistant"
        description="With your own language model (any OpenAI-compatible server, local ones included), agents get “Draft a reply” from your documents, and questions that arrive while you are closed can be answered. Every number, price, date and link in an answer must be written in your documents, or a person is asked instead."
      />
      <AssistantSettingsForm config={config} canEdit={session.user.role === "admin"} />
    </>
  );
}
