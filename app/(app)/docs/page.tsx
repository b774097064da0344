import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { roleAllows, scopes } from "@/lib/auth/scopes";

export async function generateMetadata() {
  return { title: (await getTranslations("docsGuide"))("title") };
}

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

// The APIs' names are product names and stay as they are in every language.
const references = [
  { title: "Chorus API", base: "/v1", summaryKey: "chorusSummary", reference: "/docs/v1", document: "/v1/openapi.json" },
  { title: "Plant Store API", base: "/plant-store", summaryKey: "plantSummary", reference: "/docs/plant-store", document: "/plant-store/openapi.json" },
] as const;

function Code({ children, label }: { children: string; label: string }) {
  return (
    <pre aria-label={label} tabIndex={0} className="mt-3 overflow-x-auto rounded-lg bg-slate-900 p-4 text-xs leading-relaxed text-slate-100">
      <code translate="no">{children}</code>
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

/** Inline code inside a translated sentence: field names, paths and headers stay as they are. */
const code = (chunks: React.ReactNode) => (
  <code className={inlineCode} translate="no">
    {chunks}
  </code>
);

export default async function DocsPage() {
  const t = await getTranslations("docsGuide");
  return (
    <main className="mx-auto h-full max-w-4xl overflow-y-auto px-4 py-6">
      <PageHeader title={t("title")} description={t("description")} />

      <div className="grid gap-4 md:grid-cols-2">
        {references.map((api) => (
          <Card key={api.base} className="flex flex-col">
            <h2 className="text-base font-semibold text-slate-900" translate="no">
              {api.title}
            </h2>
            <p className="mt-1 font-mono text-xs text-slate-500" translate="no">
              {api.base}
            </p>
            <p className="mt-3 flex-1 text-sm text-slate-600">{t(api.summaryKey)}</p>
            <div className="mt-4 flex flex-wrap gap-2 text-sm">
              <a href={api.reference} className="rounded-md bg-brand-600 px-3.5 py-2 font-medium text-white hover:bg-brand-700">
                {t("openReference", { api: api.title })}
              </a>
              <a href={api.document} className="rounded-md border border-slate-300 bg-white px-3.5 py-2 font-medium text-slate-800 hover:bg-slate-50" translate="no">
                OpenAPI 3.1 JSON
              </a>
            </div>
          </Card>
        ))}
      </div>

      <Section id="docs-auth" title={t("auth.title")}>
        <p>
          {t.rich("auth.body", {
            authHeader: "Authorization: Bearer <token>",
            code,
            link: (chunks) => (
              <a className="text-brand-700 underline" href="/settings/tokens">
                {chunks}
              </a>
            ),
          })}
        </p>
        <Code label={t("auth.sample")}>{loginSnippet}</Code>
      </Section>

      <Section id="docs-scopes" title={t("scopes.title")}>
        <p>{t.rich("scopes.body", { code, em: (chunks) => <em>{chunks}</em> })}</p>
        <div className="overflow-x-auto">
          <table className="mt-2 min-w-full text-start text-sm">
            <caption className="sr-only">{t("scopes.caption")}</caption>
            <thead>
              <tr className="border-b border-slate-200 text-slate-500">
                <th scope="col" className="py-2 pe-4 text-start font-medium">
                  {t("scopes.scope")}
                </th>
                <th scope="col" className="py-2 pe-4 text-start font-medium">
                  {t("scopes.admin")}
                </th>
                <th scope="col" className="py-2 text-start font-medium">
                  {t("scopes.agent")}
                </th>
              </tr>
            </thead>
            <tbody>
              {scopes.map((scope) => (
                <tr key={scope} className="border-b border-slate-100">
                  <th scope="row" className="py-1.5 pe-4 text-start font-mono text-xs font-normal text-slate-800" translate="no">
                    {scope}
                  </th>
                  <td className="py-1.5 pe-4">{roleAllows("admin", scope) ? t("scopes.yes") : t("scopes.no")}</td>
                  <td className="py-1.5">{roleAllows("agent", scope) ? t("scopes.yes") : t("scopes.no")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Section>

      <Section id="docs-errors" title={t("errors.title")}>
        <p>{t.rich("errors.body", { code })}</p>
        <Code label={t("errors.sample")}>{errorSnippet}</Code>
        <p>{t.rich("errors.plantStore", { code, body: '{"error": 400, "message": "name is required"}' })}</p>
      </Section>

      <Section id="docs-pagination" title={t("pagination.title")}>
        <p>{t.rich("pagination.body", { code, shape: '{"data": [...], "pagination": {"next_cursor", "has_more"}}' })}</p>
      </Section>

      <Section id="docs-webhooks" title={t("webhooks.title")}>
        <p>
          {t.rich("webhooks.body", {
            code,
            call: "new Webhook(secret)",
            link: (chunks) => (
              <Link className="text-brand-700 underline" href="/settings/webhooks">
                {chunks}
              </Link>
            ),
          })}
        </p>
        <Code label={t("webhooks.sample")}>{verifySnippet}</Code>
      </Section>
    </main>
  );
}
