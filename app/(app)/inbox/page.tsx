import { eq } from "drizzle-orm";
import { InboxApp } from "@/components/inbox/inbox-app";
import { getDb } from "@/db";
import { numberIntegrations } from "@/db/schema";
import { requireSession } from "@/lib/auth/current-user";
import { listOnlineUserIds } from "@/lib/events/presence";
import { listUsers } from "@/lib/users/users";

export const metadata = { title: "Inbox" };

export default async function InboxPage() {
  const session = await requireSession();
  const [team, online, [number]] = await Promise.all([
    listUsers({ ctx: session, limit: 100 }),
    listOnlineUserIds(session.accountId),
    getDb().select({ provider: numberIntegrations.provider }).from(numberIntegrations).where(eq(numberIntegrations.accountId, session.accountId)).limit(1),
  ]);
  const me = team.data.find((u) => u.id === session.user.id) ?? { ...session.user, created_at: "", updated_at: "" };
  return (
    <InboxApp
      me={me}
      teammates={team.data}
      onlineIds={online}
      canSimulate={session.user.role === "admin" && (number?.provider ?? "sandbox") === "sandbox"}
    />
  );
}
