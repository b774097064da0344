import { AsyncLocalStorage } from "node:async_hooks";
import { clientAddress } from "@/lib/platform/http/client-address";

/** Who is calling, for the audit log: the caller's address and browser (or client) name. */
export type RequestInfo = { ip: string | null; userAgent: string | null };

const store = new AsyncLocalStorage<RequestInfo>();

export function requestInfoOf(req: Request): RequestInfo {
  return { ip: clientAddress(req), userAgent: req.headers.get("user-agent")?.slice(0, 500) ?? null };
}

/** Runs `work` with the request's caller known to the verbs it calls (the /v1 wrapper and server actions set it). */
export function withRequestInfo<T>(info: RequestInfo, work: () => T): T {
  return store.run(info, work);
}

export function currentRequestInfo(): RequestInfo {
  return store.getStore() ?? { ip: null, userAgent: null };
}
