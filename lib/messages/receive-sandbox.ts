import "server-only";
import { createHash, randomBytes } from "node:crypto";
import type { ServiceContext } from "@/lib/auth/context";
import { NotFoundError } from "@/lib/platform/errors";
import { loadNumberIntegration } from "@/lib/network/integration";
import type { MessageKindContent } from "./kinds";
import { receiveInboundMessage } from "./receive-inbound";
import type { SandboxInboundInput } from "./schemas";

/**
 * Who the simulated customer is: their number, else a business-scoped user id — the one given,
 * or one derived from the account and username, so the same username is the same customer.
 */
function sandboxIdentity(accountId: string, input: SandboxInboundInput) {
  const userId = input.from_user_id ?? (input.from ? undefined : `US.${createHash("sha256").update(`${accountId}:${input.username}`).digest("hex").slice(0, 24)}`);
  return {
    from: (input.from ?? userId)!,
    ...(input.from ? { phone: input.from } : {}),
    ...(userId ? { userId } : {}),
    ...(input.username ? { username: input.username } : {}),
  };
}

/**
 * A simulated customer's message (POST /api/sandbox/inbound, "Simulate customer"): only while
 * the number is a sandbox. Every inbound kind can be simulated; quotes and reactions name the
 * message by its Chorus id.
 */
export async function receiveSandboxMessage({ ctx, input }: { ctx: ServiceContext; input: SandboxInboundInput }) {
  const integration = await loadNumberIntegration(ctx.db, ctx.accountId);
  if (integration.provider !== "sandbox") throw new NotFoundError("Sandbox");
  const content: MessageKindContent = {
    ...(input.location ? { location: input.location } : {}),
    ...(input.contacts ? { contacts: input.contacts } : {}),
    ...(input.interactive ? { interactive: input.interactive } : {}),
    ...(input.button ? { button: input.button } : {}),
    ...(input.unsupported ? { unsupported: input.unsupported } : {}),
  };
  const result = await receiveInboundMessage(ctx, {
    accountId: ctx.accountId,
    inbound: {
      networkMessageId: `sandbox.in.${randomBytes(16).toString("base64url")}`,
      ...sandboxIdentity(ctx.accountId, input),
      ...(input.name ? { name: input.name } : {}),
      type: input.type,
      ...(input.text !== undefined ? { text: input.text } : {}),
      ...(input.media ? { media: input.media } : {}),
      ...(Object.keys(content).length > 0 ? { content } : {}),
      ...(input.reaction ? { reaction: { target: { messageId: input.reaction.message_id }, emoji: input.reaction.emoji } } : {}),
      ...(input.context ? { context: { messageId: input.context.message_id } } : {}),
    },
  });
  // A Chorus id that names no message is refused before anything is stored, so this is a new message.
  if ("skipped" in result) throw new NotFoundError("Message");
  return result.message;
}
