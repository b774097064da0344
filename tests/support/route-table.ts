import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { apiOfPath, hasMalformedEscape, MALFORMED_PATH_HEADER } from "@/lib/platform/http/malformed-path";

type Handler = (req: Request, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;
type RouteModule = Partial<Record<(typeof ROUTE_METHODS)[number], Handler>>;

export const ROUTE_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

export type RouteFile = {
  /** Dynamic segments: fewer sort first, as Next.js prefers static segments. */
  dynamicCount: number;
  /** Path relative to the repository, e.g. `app/v1/users/[id]/route.ts`. */
  file: string;
  /** The URL template in OpenAPI style, e.g. `/v1/users/{id}`. */
  template: string;
  /** A `[...path]` catch-all (answers 404 for unknown paths). */
  catchAll: boolean;
  match: (pathname: string) => Record<string, string | string[]> | null;
  load: () => Promise<RouteModule>;
};

const root = path.resolve(import.meta.dirname, "../..");

function findRouteFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return findRouteFiles(full);
    return name === "route.ts" ? [full] : [];
  });
}

/** The route files under `app/<base>` (e.g. `v1`), as Next.js maps them to URLs. */
export function routeTable(base: string): RouteFile[] {
  const files = findRouteFiles(path.join(root, "app", base));
  const routes = files.map((full) => {
    // Route groups `(name)` do not appear in URLs.
    const segments = path
      .relative(path.join(root, "app"), path.dirname(full))
      .split(path.sep)
      .filter((s) => !/^\(.*\)$/.test(s));
    const names: string[] = [];
    // Each segment with its leading slash; an optional catch-all ([[...x]]) also matches nothing.
    const patterns = segments.map((segment) => {
      const catchAll = /^\[(\[)?\.\.\.(\w+)\]\]?$/.exec(segment);
      if (catchAll) {
        names.push(`...${catchAll[2]}`);
        return catchAll[1] ? "(?:/(.+))?" : "/(.+)";
      }
      const dynamic = /^\[(\w+)\]$/.exec(segment);
      if (dynamic) {
        names.push(dynamic[1]);
        return "/([^/]+)";
      }
      return "/" + segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    });
    const regex = new RegExp(`^${patterns.join("")}$`);
    return {
      file: path.relative(root, full),
      template: `/${segments.map((s) => s.replace(/^\[(\w+)\]$/, "{$1}")).join("/")}`,
      catchAll: names.some((n) => n.startsWith("...")),
      dynamicCount: names.length,
      match: (pathname: string) => {
        const found = regex.exec(pathname);
        if (!found) return null;
        return Object.fromEntries(
          names.map((name, i) => {
            const value = found[i + 1] === undefined ? "" : decodeURIComponent(found[i + 1]);
            return name.startsWith("...") ? [name.slice(3), value ? value.split("/") : []] : [name, value];
          }),
        );
      },
      load: () => import(/* @vite-ignore */ full) as Promise<RouteModule>,
    };
  });
  // Like Next.js: static segments before dynamic ones, catch-alls last.
  return routes.sort((a, b) => Number(a.catchAll) - Number(b.catchAll) || a.dynamicCount - b.dynamicCount);
}

/**
 * A `fetch` that runs the app's route handlers in-process, so a generated client (or a
 * test) talks to the real handlers without a server.
 */
export function createDispatchFetch(bases: string[]) {
  const routes = bases.flatMap((base) => routeTable(base));
  return async (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request && !init ? input : new Request(input, init);
    const pathname = new URL(request.url).pathname;
    // As the proxy does (proxy.ts): an address that cannot be decoded goes to the route that refuses it.
    if (hasMalformedEscape(pathname)) {
      const { GET: refuse } = await import("@/app/api/malformed-path/route");
      const headers = new Headers(request.headers);
      headers.set(MALFORMED_PATH_HEADER, apiOfPath(pathname) ?? "app");
      return refuse(new Request(request.url, { method: request.method, headers }));
    }
    return dispatchTo(request, pathname);
  };

  async function dispatchTo(request: Request, pathname: string): Promise<Response> {
    for (const route of routes) {
      const params = route.match(pathname);
      if (!params) continue;
      const mod = await route.load();
      const method = (request.method === "HEAD" ? "GET" : request.method) as (typeof ROUTE_METHODS)[number];
      const handler = mod[method];
      if (!handler) return new Response(null, { status: 405 });
      return handler(request, { params: Promise.resolve(params) });
    }
    return new Response("Not Found", { status: 404 });
  }
}
