type Handler = (req: Request, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

export type CallOptions = {
  method?: string;
  path: string;
  body?: unknown;
  rawBody?: string | Uint8Array;
  token?: string;
  headers?: Record<string, string>;
  params?: Record<string, string | string[]>;
};

export type CallResult = { status: number; headers: Headers; body: any; text: string };

/** Calls an exported route handler the way Next.js does, with a real Request. */
export async function call(handler: Handler, options: CallOptions): Promise<CallResult> {
  const headers: Record<string, string> = { ...options.headers };
  let body: BodyInit | undefined;
  if (options.rawBody !== undefined) body = options.rawBody as BodyInit;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const req = new Request(`http://localhost${options.path}`, { method: options.method ?? "GET", headers, body });
  const res = await handler(req, { params: Promise.resolve(options.params ?? {}) });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}
