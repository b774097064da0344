import "server-only";
import { listActivity } from "@/lib/activity/list-activity";
import type { ServiceContext } from "@/lib/auth/context";
import { getConversation } from "@/lib/conversations/conversations";
import { listConversationMessages } from "@/lib/messages/messages";
import { listNotes } from "@/lib/notes/list-notes";
import { listScopeOf, withListScope } from "@/lib/platform/cursor";
import type { ConversationInclude } from "./open-schemas";

/** Notes and activity entries brought along: as many as the conversation view shows at first. */
const TEAM_PAGE = 100;

/**
 * A conversation with the newest page of each list asked for: what the inbox needs to open it,
 * in one request instead of one per list. Each list's `next_cursor` is issued for that list's
 * own endpoint, so paging back goes on there.
 */
export async function openConversation({ ctx, id, include, limit }: { ctx: ServiceContext; id: string; include: ConversationInclude[]; limit: number }) {
  const conversation = await getConversation({ ctx, id });
  const scoped = <T>(list: string, work: () => Promise<T>) => withListScope(listScopeOf(new URL(`/v1/conversations/${conversation.id}/${list}`, "http://chorus.invalid")), work);
  const wants = new Set(include);
  const messages = wants.has("messages") ? await scoped("messages", () => listConversationMessages({ ctx, conversationId: conversation.id, limit })) : undefined;
  const notes = wants.has("notes") ? await scoped("notes", () => listNotes({ ctx, conversationId: conversation.id, limit: TEAM_PAGE })) : undefined;
  const activity = wants.has("activity") ? await scoped("activity", () => listActivity({ ctx, conversationId: conversation.id, limit: TEAM_PAGE })) : undefined;
  return { ...conversation, ...(messages ? { messages } : {}), ...(notes ? { notes } : {}), ...(activity ? { activity } : {}) };
}
