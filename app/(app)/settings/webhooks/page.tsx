import { WebhooksManager } from "@/components/settings/webhooks/webhooks-manager";
import { Alert } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { requireSession } from "@/lib/auth/current-user";
import { listWebhooks } from "@/lib/webhooks/list-webhooks";
import { eventTypeGroups, MAX_WEBHOOKS_PER_ACCOUNT } from "@/lib/webhooks/schemas";

export const metadata = { title: "Webhooks" };

export default async function WebhooksPage() {
  const session = await requireSession();
  const header = (
    <PageHeader
      title="Webhooks"
      description="Send every event of this account (new messages, conversation changes, users…) to your own endpoint, signed and retried."
    />
  );
  if (session.user.role !== "admin") {
    return (
      <>
        {header}
        <Alert tone="info">Only administrators can manage webhooks. Ask an administrator of your account if you need one.</Alert>
      </>
    );
  }
  const page = await listWebhooks({ ctx: session, limit: MAX_WEBHOOKS_PER_ACCOUNT });
  return (
    <>
      {header}
      <WebhooksManager webhooks={page.data} eventGroups={eventTypeGroups} limit={MAX_WEBHOOKS_PER_ACCOUNT} />
    </>
  );
}
