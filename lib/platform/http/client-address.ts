import { getEnv } from "@/lib/platform/env";
import { PEER_ADDRESS_HEADER } from "@/lib/platform/http/request-hook";

/**
 * The caller's address for per-address limits. The server stamps every request with the
 * socket's peer address (lib/platform/http/request-hook.ts; a client cannot set that header). With
 * `TRUSTED_PROXIES=0` (the default) that address counts and X-Forwarded-For is ignored; with
 * N proxies in front, each appends the address it saw, so the client is the Nth entry from
 * the right of X-Forwarded-For followed by the peer (entries further left are whatever the
 * client sent).
 */
export function clientAddress(req: Request): string {
  const peer = req.headers.get(PEER_ADDRESS_HEADER)?.trim() || "local";
  const proxies = getEnv().TRUSTED_PROXIES;
  if (proxies === 0) return peer;
  const forwarded = (req.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const chain = [...forwarded, peer];
  return chain[Math.max(0, chain.length - 1 - proxies)];
}
