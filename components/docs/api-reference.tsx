import Link from "next/link";
import { useTranslations } from "next-intl";
import { CopyButton } from "@/components/ui/copy-button";
import {
  type BodyView,
  exampleOf,
  type HeaderView,
  type OperationView,
  type ParameterView,
  type ReferenceView,
  type ResponseView,
  responseAnchor,
} from "@/lib/openapi/reference";
import { Inline, Markdown } from "./markdown";
import { ApiText, Facts, RefLink, SchemaBlock, SchemaBody, TypeLabel } from "./schema-view";

const methodTones: Record<string, string> = {
  GET: "bg-sky-100 text-sky-800",
  POST: "bg-emerald-100 text-emerald-800",
  PUT: "bg-amber-100 text-amber-900",
  PATCH: "bg-violet-100 text-violet-800",
  DELETE: "bg-red-100 text-red-800",
};

function MethodBadge({ method, small = false }: { method: string; small?: boolean }) {
  return (
    <span translate="no" className={`ref-badge ${small ? "w-12 !px-1 !py-px !text-[0.65rem]" : ""} ${methodTones[method] ?? "bg-slate-100 text-slate-800"}`}>
      {method}
    </span>
  );
}

function StatusBadge({ status }: { status: string }) {
  const tone = status.startsWith("2")
    ? "bg-emerald-100 text-emerald-800"
    : status.startsWith("4")
      ? "bg-amber-100 text-amber-900"
      : status.startsWith("5")
        ? "bg-red-100 text-red-800"
        : "bg-slate-100 text-slate-800";
  return (
    <span translate="no" className={`ref-badge min-w-12 ${tone}`}>
      {status}
    </span>
  );
}

function H4({ children }: { children: React.ReactNode }) {
  return <h4 className="ref-h4">{children}</h4>;
}

function CodeSample({ code, label, copyLabel }: { code: string; label: string; copyLabel?: string }) {
  return (
    <figure className="min-w-0 overflow-hidden rounded-lg bg-slate-900">
      <figcaption className="ref-caption">
        <span>{label}</span>
        {copyLabel ? <CopyButton value={code} ariaLabel={copyLabel} className="!px-2 !py-1 !text-xs" /> : null}
      </figcaption>
      <pre tabIndex={0} aria-label={label} className="overflow-x-auto p-3 text-xs leading-relaxed text-slate-100">
        <code translate="no">{code}</code>
      </pre>
    </figure>
  );
}

function Parameters({ parameters }: { parameters: ParameterView[] }) {
  const groups = (["path", "query", "header", "cookie"] as const)
    .map((location) => ({ location, items: parameters.filter((p) => p.in === location) }))
    .filter((group) => group.items.length > 0);
  const t = useTranslations("apiReference");
  const titles = { path: t("parameters.path"), query: t("parameters.query"), header: t("parameters.header"), cookie: t("parameters.cookie") };
  return (
    <>
      {groups.map((group) => (
        <div key={group.location}>
          <H4>{titles[group.location]}</H4>
          <ul className="ref-box mt-2 px-3 text-sm">
            {group.items.map((parameter) => (
              <li key={parameter.name} className="ref-field">
                <div className="ref-head">
                  <code className="ref-name" translate="no">
                    {parameter.name}
                  </code>
                  <TypeLabel schema={parameter.schema} />
                  {parameter.required ? <span className="ref-required">{t("required")}</span> : <span className="ref-optional">{t("optional")}</span>}
                </div>
                <Facts schema={parameter.schema} description={parameter.description} />
              </li>
            ))}
          </ul>
        </div>
      ))}
    </>
  );
}

function Headers({ headers }: { headers: HeaderView[] }) {
  const t = useTranslations("apiReference");
  if (headers.length === 0) return null;
  return (
    <details className="ref-nested">
      <summary>{t("responseHeaders", { count: headers.length })}</summary>
      <dl className="space-y-2 p-3 text-xs">
        {headers.map((header) => (
          <div key={header.name}>
            <dt className="font-mono font-semibold text-slate-900">
              <span translate="no">{header.name}</span>
              {header.required ? <span className="ref-required font-sans"> {t("alwaysSent")}</span> : null}
            </dt>
            <dd>{header.description ? <Markdown text={header.description} /> : null}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

function Body({ body }: { body: BodyView }) {
  return (
    <div className="mt-2">
      <p className="ref-type">
        <code className="font-mono" translate="no">
          {body.mediaType}
        </code>
        {body.description ? (
          <>
            {" · "}
            <ApiText>{body.description}</ApiText>
          </>
        ) : null}
      </p>
      {body.schema ? (
        <div className="mt-1">
          <SchemaBlock schema={body.schema} />
        </div>
      ) : null}
    </div>
  );
}

function Responses({ responses }: { responses: ResponseView[] }) {
  const t = useTranslations("apiReference");
  const detailed = responses.filter((r) => !r.refName);
  const shared = responses.filter((r) => r.refName);
  return (
    <>
      <H4>{t("responses")}</H4>
      <ul className="mt-2 space-y-3">
        {detailed.map((response) => (
          <li key={response.status} className="ref-box p-3">
            <div className="flex flex-wrap items-start gap-2">
              <StatusBadge status={response.status} />
              <Markdown text={response.description} className="min-w-0 flex-1" />
            </div>
            {response.bodies.map((body) => (
              <Body key={body.mediaType} body={body} />
            ))}
            {response.bodies.length === 0 ? <p className="ref-note">{t("noBody")}</p> : null}
            <Headers headers={response.headers} />
          </li>
        ))}
      </ul>
      {shared.length > 0 ? (
        <>
          <H4>{t("errors")}</H4>
          <ul className="ref-box mt-2 px-3 text-sm">
            {shared.map((response) => (
              <li key={response.status} className="ref-field flex items-start gap-2">
                <StatusBadge status={response.status} />
                <p className="min-w-0 flex-1 text-slate-700">
                  <a href={`#${responseAnchor(response.refName!)}`} className="ref-link" translate="no">
                    {response.refName}
                  </a>{" "}
                  <ApiText>
                    <Inline text={response.description} />
                  </ApiText>
                </p>
              </li>
            ))}
          </ul>
          <p className="ref-note">{t.rich("errorBody", { link: () => <RefLink name="Error" /> })}</p>
        </>
      ) : null}
    </>
  );
}

function Access({ operation }: { operation: OperationView }) {
  const t = useTranslations("apiReference");
  return (
    <div className="mt-3 flex flex-wrap items-center gap-2 text-xs">
      {operation.auth === "none" ? (
        <span className="rounded-full border border-slate-300 px-2 py-0.5 text-slate-700">{t("noToken")}</span>
      ) : (
        <span className="rounded-full border border-slate-300 px-2 py-0.5 text-slate-700">{t("bearerToken")}</span>
      )}
      {operation.scopes.length > 0 ? (
        <>
          <span className="text-slate-600" id={`${operation.anchor}-scopes`}>
            {t("requiredScopes")}
          </span>
          <ul aria-labelledby={`${operation.anchor}-scopes`} translate="no" className="flex flex-wrap gap-1">
            {operation.scopes.map((scope) => (
              <li key={scope} className="rounded-full bg-brand-50 px-2 py-0.5 font-mono font-medium text-brand-700">
                {scope}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}

function successExample(operation: OperationView) {
  const success = operation.responses.find((r) => r.status.startsWith("2") && r.bodies.some((b) => b.mediaType.endsWith("json") && b.schema));
  const body = success?.bodies.find((b) => b.mediaType.endsWith("json") && b.schema);
  return success && body?.schema ? { status: success.status, json: JSON.stringify(exampleOf(body.schema, { requiredOnly: true }), null, 2) } : undefined;
}

function Operation({ operation, kind }: { operation: OperationView; kind: "operation" | "webhook" }) {
  const t = useTranslations("apiReference");
  const example = kind === "operation" ? successExample(operation) : undefined;
  const bodyExample = kind === "webhook" && operation.requestBody?.schema ? JSON.stringify(exampleOf(operation.requestBody.schema, { requiredOnly: true }), null, 2) : undefined;
  const title = `${operation.method} ${operation.path}`;
  return (
    <section id={operation.anchor} aria-labelledby={`${operation.anchor}-title`} className="scroll-mt-4 border-t border-slate-200 py-8 first:border-t-0">
      <h3 id={`${operation.anchor}-title`} className="flex flex-wrap items-center gap-2 text-base">
        <MethodBadge method={operation.method} /> <code translate="no" className="font-mono font-semibold break-all text-slate-900">{operation.path}</code>
      </h3>
      {operation.summary ? (
        <p lang="en" data-user-content className="mt-1 text-base font-medium text-slate-800">
          {operation.summary}
        </p>
      ) : null}
      <div className="mt-3 grid gap-6 xl:grid-cols-[minmax(0,1fr)_minmax(0,26rem)]">
        <div className="min-w-0">
          {operation.description ? <Markdown text={operation.description} /> : null}
          {kind === "operation" ? <Access operation={operation} /> : null}
          <Parameters parameters={operation.parameters} />
          {operation.requestBody ? (
            <>
              <H4>{kind === "webhook" ? t("webhookBody") : operation.requestBody.required ? t("requestBody") : t("requestBodyOptional")}</H4>
              <Body body={operation.requestBody} />
            </>
          ) : null}
          <Responses responses={operation.responses} />
        </div>
        <div className="min-w-0 space-y-3 xl:sticky xl:top-4 xl:self-start">
          {operation.curl ? <CodeSample code={operation.curl} label={t("exampleRequest")} copyLabel={t("copyCurl", { operation: title })} /> : null}
          {example ? <CodeSample code={example.json} label={t("exampleAnswer", { status: example.status })} /> : null}
          {bodyExample ? <CodeSample code={bodyExample} label={t("exampleBody")} /> : null}
        </div>
      </div>
    </section>
  );
}

/** A tag's name as the document wrote it; the operations it left untagged are the page's "Other". */
function TagName({ tag }: { tag: ReferenceView["tags"][number] }) {
  const t = useTranslations("apiReference");
  return tag.untagged ? t("otherOperations") : <ApiText>{tag.name}</ApiText>;
}

function Contents({ reference }: { reference: ReferenceView }) {
  const t = useTranslations("apiReference");
  const link = "ref-toc";
  return (
    <ul className="space-y-4 text-sm">
      <li>
        <a href="#introduction" className={`${link} font-medium`}>
          {t("introduction")}
        </a>
      </li>
      {reference.tags.map((tag) => (
        <li key={tag.anchor}>
          <a href={`#${tag.anchor}`} className="block px-2 text-xs font-semibold tracking-wide text-slate-500 uppercase hover:text-slate-900">
            <TagName tag={tag} />
          </a>
          <ul className="mt-1 space-y-0.5">
            {tag.operations.map((operation) => (
              <li key={operation.anchor}>
                <a href={`#${operation.anchor}`} className={link}>
                  <MethodBadge method={operation.method} small />
                  {operation.summary ? (
                    <ApiText className="min-w-0 truncate">{operation.summary}</ApiText>
                  ) : (
                    <span translate="no" className="min-w-0 truncate">
                      {operation.path}
                    </span>
                  )}
                </a>
              </li>
            ))}
          </ul>
        </li>
      ))}
      {reference.webhooks.length > 0 ? (
        <li>
          <a href="#webhooks" className="block px-2 text-xs font-semibold tracking-wide text-slate-500 uppercase hover:text-slate-900">
            {t("webhooks")}
          </a>
          <ul className="mt-1 space-y-0.5">
            {reference.webhooks.map((webhook) => (
              <li key={webhook.anchor}>
                <a href={`#${webhook.anchor}`} className={`${link} font-mono text-xs`}>
                  <span translate="no" className="min-w-0 truncate">
                    {webhook.path}
                  </span>
                </a>
              </li>
            ))}
          </ul>
        </li>
      ) : null}
      {reference.responses.length > 0 ? (
        <li>
          <a href="#responses" className={`${link} font-medium`}>
            {t("errorResponses")}
          </a>
        </li>
      ) : null}
      <li>
        <a href="#schemas" className={`${link} font-medium`}>
          {t("schemas")}
        </a>
      </li>
    </ul>
  );
}

export function ApiReference({ reference, documentUrl }: { reference: ReferenceView; documentUrl: string }) {
  const t = useTranslations("apiReference");
  return (
    <div className="flex h-full">
      <aside className="relative hidden w-72 shrink-0 overflow-y-auto border-r border-slate-200 bg-white px-3 py-6 lg:block">
        {/* The contents hold dozens of links: keyboard users can go straight to the page. */}
        <a href="#introduction" className="sr-only rounded-md bg-white px-3 py-2 text-sm font-medium text-brand-700 shadow focus:not-sr-only focus:absolute focus:top-1 focus:left-3 focus:z-10">
          {t("skipToReference")}
        </a>
        <nav aria-label={t("contentsLabel")}>
          <Contents reference={reference} />
        </nav>
      </aside>
      <main className="h-full min-w-0 flex-1 overflow-y-auto">
        <div className="mx-auto max-w-6xl px-4 py-6 sm:px-6">
          <div id="introduction" tabIndex={-1} className="scroll-mt-4 focus:outline-none">
            <p className="text-sm">
              <Link href="/docs" className="text-brand-700 underline underline-offset-2 hover:text-brand-600">
                {t("breadcrumb.docs")}
              </Link>{" "}
              <span aria-hidden="true" className="text-slate-400">
                /
              </span>{" "}
              <span className="text-slate-600">{t("breadcrumb.reference")}</span>
            </p>
            <div className="mt-2 flex flex-wrap items-center gap-3">
              <h1 className="text-2xl font-semibold text-slate-900">{t.rich("title", { name: () => <span translate="no">{reference.title}</span> })}</h1>
              <span translate="no" className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700">
                v{reference.version}
              </span>
              {reference.license ? <span translate="no" className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700">{reference.license}</span> : null}
            </div>
            <div className="mt-4 flex flex-wrap gap-2 text-sm">
              <a href={documentUrl} translate="no" className="rounded-md border border-slate-300 bg-white px-3 py-1.5 font-medium text-slate-800 hover:bg-slate-50">
                OpenAPI 3.1 JSON
              </a>
              <span className="rounded-md bg-slate-100 px-3 py-1.5 text-slate-700">
                {t("baseUrl")}{" "}
                <code translate="no" className="font-mono text-xs break-all">
                  {reference.baseUrl}
                </code>
              </span>
            </div>
            {reference.description ? <Markdown text={reference.description} className="mt-4 max-w-3xl" /> : null}
            {reference.securitySchemes.length > 0 ? (
              <div className="mt-4 max-w-3xl rounded-lg border border-slate-200 bg-white p-4">
                <h2 className="text-sm font-semibold text-slate-900">{t("authentication")}</h2>
                {reference.securitySchemes.map((scheme) => (
                  <div key={scheme.name} className="mt-1 text-sm text-slate-700">
                    <p translate="no">
                      <code className="font-mono text-xs">Authorization: Bearer &lt;token&gt;</code> ({scheme.scheme})
                    </p>
                    {scheme.description ? <Markdown text={scheme.description} className="mt-1" /> : null}
                  </div>
                ))}
              </div>
            ) : null}
            <details className="mt-4 rounded-lg border border-slate-200 bg-white lg:hidden">
              <summary className="cursor-pointer px-4 py-2 text-sm font-medium text-slate-800">{t("contents")}</summary>
              <nav aria-label={t("contentsLabel")} className="border-t border-slate-200 px-2 py-3">
                <Contents reference={reference} />
              </nav>
            </details>
          </div>

          {reference.tags.map((tag) => (
            <section key={tag.anchor} id={tag.anchor} aria-labelledby={`${tag.anchor}-title`} className="mt-10 scroll-mt-4">
              <h2 id={`${tag.anchor}-title`} className="border-b border-slate-200 pb-2 text-lg font-semibold text-slate-900">
                <TagName tag={tag} />
              </h2>
              {tag.description ? <Markdown text={tag.description} className="mt-2" /> : null}
              {tag.operations.map((operation) => (
                <Operation key={operation.anchor} operation={operation} kind="operation" />
              ))}
            </section>
          ))}

          {reference.webhooks.length > 0 ? (
            <section id="webhooks" aria-labelledby="webhooks-title" className="mt-10 scroll-mt-4">
              <h2 id="webhooks-title" className="border-b border-slate-200 pb-2 text-lg font-semibold text-slate-900">
                {t("webhooks")}
              </h2>
              <Markdown className="mt-2" fromDocument={false} text={t("webhooksIntro")} />
              {reference.webhooks.map((webhook) => (
                <Operation key={webhook.anchor} operation={webhook} kind="webhook" />
              ))}
            </section>
          ) : null}

          {reference.responses.length > 0 ? (
            <section id="responses" aria-labelledby="responses-title" className="mt-10 scroll-mt-4">
              <h2 id="responses-title" className="border-b border-slate-200 pb-2 text-lg font-semibold text-slate-900">
                {t("errorResponses")}
              </h2>
              <ul className="mt-4 space-y-3">
                {reference.responses.map((response) => (
                  <li key={response.anchor} id={response.anchor} className="scroll-mt-4 rounded-lg border border-slate-200 bg-white p-4">
                    <h3 translate="no" className="font-mono text-sm font-semibold text-slate-900">
                      {response.refName}
                    </h3>
                    <Markdown text={response.description} className="mt-1" />
                    {response.bodies.map((body) => (
                      <Body key={body.mediaType} body={body} />
                    ))}
                    <Headers headers={response.headers} />
                  </li>
                ))}
              </ul>
            </section>
          ) : null}

          <section id="schemas" aria-labelledby="schemas-title" className="mt-10 mb-16 scroll-mt-4">
            <h2 id="schemas-title" className="border-b border-slate-200 pb-2 text-lg font-semibold text-slate-900">
              {t("schemas")}
            </h2>
            <ul className="mt-4 space-y-3">
              {reference.schemas.map((component) => (
                <li key={component.anchor} id={component.anchor} className="scroll-mt-4 rounded-lg border border-slate-200 bg-white p-4">
                  <h3 translate="no" className="font-mono text-sm font-semibold text-slate-900">
                    {component.name}
                  </h3>
                  {component.schema.description ? <Markdown text={component.schema.description} className="mt-1" /> : null}
                  <SchemaComponent schema={component.schema} />
                </li>
              ))}
            </ul>
          </section>
        </div>
      </main>
    </div>
  );
}

function SchemaComponent({ schema }: { schema: ReferenceView["schemas"][number]["schema"] }) {
  if (schema.fields?.length || schema.variants?.length) {
    return (
      <div className="mt-2 rounded-lg border border-slate-100 px-3">
        <SchemaBody schema={schema} />
      </div>
    );
  }
  return (
    <div className="mt-2">
      <SchemaBlock schema={{ ...schema, refName: undefined }} showDescription={false} />
    </div>
  );
}
