import { collectPages } from "@/lib/platform/pagination";
import { requireSession } from "@/lib/auth/current-user";
import { listOnlineUserIds } from "@/lib/events/presence";
import { getNumberConfig } from "@/lib/network/number-config";
import { listUsers } from "@/lib/users/users";
import { InboxApp } from "./inbox-app";

/** The inbox page, for `/inbox` (the list) and `/inbox/{conversation_id}` (one conversation open). */
export async function InboxPage({ conversationId = null }: { conversationId?: string | null }) {
  const session = await requireSession();
  const [team, online, number] = await Promise.all([
    collectPages((cursor) => listUsers({ ctx: session, limit: 100, cursor })),
    listOnlineUserIds(session.accountId),
    getNumberConfig({ ctx: session }),
  ]);
  const me = team.find((u) => u.id === session.user.id) ?? { ...session.user, created_at: "", updated_at: "" };
  return (
    <InboxApp
      me={me}
      teammates={team}
      onlineIds={online}
      canSimulate={session.user.role === "admin" && number.provider === "sandbox"}
      initialConversationId={conversationId}
    />
  );
}
