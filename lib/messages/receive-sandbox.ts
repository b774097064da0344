import { randomBytes } from "node:crypto";
import { getDb } from "@/db";
import type { AuthContext } from "@/lib/auth/tokens";
import { NotFoundError } from "@/lib/errors";
import { loadNumberIntegration } from "@/lib/network/number-config";
import { receiveInboundMessage } from "./receive-inbound";
import type { SandboxInboundInput } from "./schemas";

/** A simulated customer's message (POST /api/sandbox/inbound, "Simulate customer"): only while the number is a sandbox. */
export async function receiveSandboxMessage({ ctx, input }: { ctx: Pick<AuthContext, "accountId">; input: SandboxInboundInput }) {
  const integration = await loadNumberIntegration(getDb(), ctx.accountId);
  if (integration.provider !== "sandbox") throw new NotFoundError("Sandbox");
  const { message } = await receiveInboundMessage({
    accountId: ctx.accountId,
    inbound: {
      networkMessageId: `sandbox.in.${randomBytes(16).toString("base64url")}`,
      from: input.from,
      ...(input.name ? { name: input.name } : {}),
      type: input.type,
      ...(input.text !== undefined ? { text: input.text } : {}),
      ...("media" in input && input.media ? { media: input.media } : {}),
      ...("interactive" in input && input.interactive ? { interactive: input.interactive } : {}),
    },
  });
  return message;
}
