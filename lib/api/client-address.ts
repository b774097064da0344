/**
 * The caller's address for per-address limits. A proxy appends the address it saw to
 * X-Forwarded-For, so the last entry is the one a client cannot choose (earlier entries are
 * whatever the client sent). Without a proxy, Next.js fills the header with the peer address.
 */
export function clientAddress(req: Request): string {
  return req.headers.get("x-forwarded-for")?.split(",").at(-1)?.trim() || req.headers.get("x-real-ip") || "local";
}
