import { collectPages } from "@/lib/platform/pagination";
import { requireSession } from "@/lib/server/session";
import { getConversation } from "@/lib/conversations/conversations";
import { listOnlineUserIds } from "@/lib/events/presence";
import { countInbox } from "@/lib/inbox/count-inbox";
import { listInbox } from "@/lib/inbox/list-inbox";
import { getNumberConfig } from "@/lib/network/number-config";
import { listUsers } from "@/lib/users/users";
import { InboxApp } from "./inbox-app";
import { INITIAL_LIST_LIMIT } from "./types";

/**
 * The inbox page, for `/inbox` (the list) and `/inbox/{conversation_id}` (one conversation open).
 * The list's first page, the tab counts and the conversation a link opens come with the page:
 * the first paint shows conversations, not a spinner waiting for the script to ask for them.
 */
export async function InboxPage({ conversationId = null }: { conversationId?: string | null }) {
  const session = await requireSession();
  const [team, online, number, firstPage, counts, opened] = await Promise.all([
    collectPages((cursor) => listUsers({ ctx: session, limit: 100, cursor })),
    listOnlineUserIds(session),
    getNumberConfig({ ctx: session }),
    listInbox({ ctx: session, query: { filter: "all", sort: "activity", limit: INITIAL_LIST_LIMIT } }),
    countInbox({ ctx: session }),
    // Another account's or a deleted conversation: the page says so once the script runs.
    conversationId ? getConversation({ ctx: session, id: conversationId }).catch(() => null) : null,
  ]);
  const me = team.find((u) => u.id === session.user.id) ?? { ...session.user, created_at: "", updated_at: "" };
  return (
    <InboxApp
      me={me}
      teammates={team}
      onlineIds={online}
      canSimulate={session.user.role === "admin" && number.provider === "sandbox"}
      initialConversationId={conversationId}
      initialList={firstPage}
      initialCounts={counts}
      initialConversation={opened}
    />
  );
}
