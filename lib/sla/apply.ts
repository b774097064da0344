import "server-only";
import type { ServiceContext } from "@/lib/auth/context";
import { userActor } from "@/lib/activity/schemas";
import { presentConversation } from "@/lib/conversations/schemas";
import { findConversation } from "@/lib/conversations/store";
import { applySla } from "./sla";

/** `PUT /v1/conversations/{id}/sla`: a person applies (or removes) a policy by hand. */
export async function applySlaToConversation({ ctx, id, slaPolicyId }: { ctx: ServiceContext<"user">; id: string; slaPolicyId: string | null }) {
  return ctx.db.transaction(async (tx) => {
    await findConversation(tx, { accountId: ctx.accountId, id, lock: true });
    await applySla(tx, { ctx, conversationId: id, slaPolicyId, actor: userActor(ctx.user) });
    return presentConversation(await findConversation(tx, { accountId: ctx.accountId, id }));
  });
}
