import Link from "next/link";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { roleAllows, scopes } from "@/lib/auth/scopes";

export const metadata = { title: "API docs" };

const verifySnippet = `import { createHmac, timingSafeEqual } from "node:crypto";

// rawBody: the exact bytes received (before any JSON parsing).
// secret: the webhook's secret string, exactly as shown once when you registered it
// (whsec_ prefix included). Both signatures use it as the HMAC key, as is: no decoding.
export function isFromChorus(rawBody, signatureHeader, secret) {
  const expected = Buffer.from(
    "sha256=" + createHmac("sha256", secret).update(rawBody).digest("hex"),
  );
  const given = Buffer.from(signatureHeader ?? "");
  return expected.length === given.length && timingSafeEqual(expected, given);
}

// In your handler:
// if (!isFromChorus(rawBody, req.headers["x-service-signature"], SECRET)) return 400;
// then de-duplicate on the X-Service-Event-Id header before acting.

// Or with a Standard Webhooks library, given the secret exactly as shown:
// new Webhook(SECRET).verify(rawBody, req.headers);`;

const loginSnippet = `curl -X POST $CHORUS/v1/auth/login \\
  -H "Content-Type: application/json" \\
  -d '{"email": "you@example.com", "password": "…"}'

curl $CHORUS/v1/conversations?status=open \\
  -H "Authorization: Bearer $TOKEN"`;

const errorSnippet = `{
  "error": {
    "code": "validation_error",
    "message": "to: must be 8 to 15 digits",
    "details": [{ "path": "to", "message": "must be 8 to 15 digits" }]
  },
  "request_id": "req_01jd2x8k3f0m6q1v9w4r7t5y2z"
}`;

const references = [
  {
    title: "Chorus API",
    base: "/v1",
    summary: "Conversations, messages, users, reports, configuration, webhooks and the live event stream.",
    reference: "/docs/v1",
    document: "/v1/openapi.json",
  },
  {
    title: "Plant Store API",
    base: "/plant-store",
    summary: "A small sample API: list, add and delete your account's plants, and the New Plant webhook.",
    reference: "/docs/plant-store",
    document: "/plant-store/openapi.json",
  },
];

function Code({ children, label }: { children: string; label: string }) {
  return (
    <pre aria-label={label} tabIndex={0} className="mt-3 overflow-x-auto rounded-lg bg-slate-900 p-4 text-xs leading-relaxed text-slate-100">
      <code>{children}</code>
    </pre>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="mt-8">
      <h2 id={id} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      <div className="mt-2 space-y-2 text-sm leading-relaxed text-slate-700">{children}</div>
    </section>
  );
}

const inlineCode = "rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.8em] text-slate-800";

export default function DocsPage() {
  return (
    <main className="mx-auto h-full max-w-4xl overflow-y-auto px-4 py-6">
      <PageHeader
        title="API docs"
        description="Integrate with Chorus over HTTP. Each reference lists every operation with its scopes, parameters, bodies, answers and errors, the webhooks, and a curl example to copy."
      />

      <div className="grid gap-4 md:grid-cols-2">
        {references.map((api) => (
          <Card key={api.base} className="flex flex-col">
            <h2 className="text-base font-semibold text-slate-900">{api.title}</h2>
            <p className="mt-1 font-mono text-xs text-slate-500">{api.base}</p>
            <p className="mt-3 flex-1 text-sm text-slate-600">{api.summary}</p>
            <div className="mt-4 flex flex-wrap gap-2 text-sm">
              <a href={api.reference} className="rounded-md bg-brand-600 px-3.5 py-2 font-medium text-white hover:bg-brand-700">
                Open the {api.title} reference
              </a>
              <a href={api.document} className="rounded-md border border-slate-300 bg-white px-3.5 py-2 font-medium text-slate-800 hover:bg-slate-50">
                OpenAPI 3.1 JSON
              </a>
            </div>
          </Card>
        ))}
      </div>

      <Section id="docs-auth" title="Authentication">
        <p>
          Send <code className={inlineCode}>Authorization: Bearer &lt;token&gt;</code> with every request. Create an API token
          with the scopes you need in <a className="text-brand-700 underline" href="/settings/tokens">Settings → API tokens</a>{" "}
          (it lives 1 day to 1 year, and is shown only once), or get a 24-hour session token for an app with{" "}
          <code className={inlineCode}>POST /v1/auth/login</code>. Renew either with{" "}
          <code className={inlineCode}>POST /v1/auth/refresh</code>. The plant store accepts any valid token of your account.
        </p>
        <Code label="Signing in and calling the API with curl">{loginSnippet}</Code>
      </Section>

      <Section id="docs-scopes" title="Scopes">
        <p>
          Each operation names its scope (<code className={inlineCode}>x-required-scopes</code> in the document). A request needs the
          scope on the token <em>and</em> a role that allows it: a token keeps working after its owner is demoted, but loses the
          administrator scopes (403 <code className={inlineCode}>forbidden</code>).
        </p>
        <div className="overflow-x-auto">
          <table className="mt-2 min-w-full text-left text-sm">
            <caption className="sr-only">Scopes and the roles that may use them</caption>
            <thead>
              <tr className="border-b border-slate-200 text-slate-500">
                <th scope="col" className="py-2 pr-4 font-medium">Scope</th>
                <th scope="col" className="py-2 pr-4 font-medium">Administrator</th>
                <th scope="col" className="py-2 font-medium">Agent</th>
              </tr>
            </thead>
            <tbody>
              {scopes.map((scope) => (
                <tr key={scope} className="border-b border-slate-100">
                  <th scope="row" className="py-1.5 pr-4 font-mono text-xs font-normal text-slate-800">{scope}</th>
                  <td className="py-1.5 pr-4">{roleAllows("admin", scope) ? "Yes" : "No"}</td>
                  <td className="py-1.5">{roleAllows("agent", scope) ? "Yes" : "No"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Section>

      <Section id="docs-errors" title="Errors">
        <p>
          Every non-2xx answer of <code className={inlineCode}>/v1</code> has the same body; <code className={inlineCode}>code</code> is
          stable, <code className={inlineCode}>details</code> names each invalid field, and <code className={inlineCode}>request_id</code>{" "}
          matches the <code className={inlineCode}>X-Request-Id</code> header. A 429 carries <code className={inlineCode}>Retry-After</code>;
          every answer carries <code className={inlineCode}>RateLimit-Limit</code>, <code className={inlineCode}>-Remaining</code> and{" "}
          <code className={inlineCode}>-Reset</code>.
        </p>
        <Code label="An error body of the Chorus API">{errorSnippet}</Code>
        <p>
          The plant store answers <code className={inlineCode}>{'{"error": 400, "message": "name is required"}'}</code>: the HTTP status
          and a sentence.
        </p>
      </Section>

      <Section id="docs-pagination" title="Pagination">
        <p>
          Lists take <code className={inlineCode}>limit</code> (1 to 100, default 50) and answer{" "}
          <code className={inlineCode}>{'{"data": [...], "pagination": {"next_cursor", "has_more"}}'}</code>. Pass{" "}
          <code className={inlineCode}>next_cursor</code> back as <code className={inlineCode}>cursor</code> until{" "}
          <code className={inlineCode}>has_more</code> is false; pages never repeat or skip a row while data changes. The plant store lists
          oldest first, at most <code className={inlineCode}>limit</code> plants and never more than 1,000.
        </p>
      </Section>

      <Section id="docs-webhooks" title="Webhooks">
        <p>
          Register an HTTPS endpoint in <Link className="text-brand-700 underline" href="/settings/webhooks">Settings → Webhooks</Link> or with{" "}
          <code className={inlineCode}>POST /v1/webhooks</code>. Each event is POSTed as JSON (the plant store&apos;s New Plant webhook
          sends the plant itself) and retried 1 min, 5 min, 15 min and 1 h after a failure; answer any 2xx within 30 s. Check the{" "}
          <code className={inlineCode}>X-Service-Signature</code> header before trusting a delivery, and answer 400 when it does not
          match. <code className={inlineCode}>X-Service-Signature</code> uses the secret string as the key, exactly as shown when you
          registered the webhook (<code className={inlineCode}>whsec_</code> prefix included, nothing decoded). The Standard Webhooks
          headers (<code className={inlineCode}>webhook-id</code>, <code className={inlineCode}>webhook-timestamp</code>,{" "}
          <code className={inlineCode}>webhook-signature</code>) follow that standard, so a Standard Webhooks library verifies a
          delivery and refuses replays when given the secret as shown:{" "}
          <code className={inlineCode}>{"new Webhook(secret)"}</code>.
        </p>
        <Code label="Verifying a webhook signature in Node.js">{verifySnippet}</Code>
      </Section>
    </main>
  );
}
