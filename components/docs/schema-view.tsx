import { useTranslations } from "next-intl";
import { Fragment } from "react";
import { type FieldView, type Limit, type SchemaView, schemaAnchor } from "@/lib/openapi/reference";
import { Markdown } from "./markdown";

// Class names starting with `ref-` are defined once in app/globals.css. What the OpenAPI document
// says stays as written: names, types, formats and values are codes (`translate="no"`), its prose
// is English content (`lang="en"`); the words around them come from the `apiReference` catalog.

/** A short text of the document (a summary, a tag or shape title): English content. */
export function ApiText({ children, className }: { children: React.ReactNode; className?: string }) {
  return (
    <span lang="en" data-user-content className={className}>
      {children}
    </span>
  );
}

/** A code of the document (a type, a format, a name), never translated. */
function Code({ children }: { children: React.ReactNode }) {
  return <span translate="no">{children}</span>;
}

/** The schema whose fields a row can open: an object, the items of an array, or the alternatives. */
function childOf(schema: SchemaView): SchemaView | undefined {
  if (schema.truncated) return undefined;
  if (schema.fields?.length || schema.variants?.length) return schema;
  if (schema.items && !schema.items.truncated && (schema.items.fields?.length || schema.items.variants?.length)) return schema.items;
  if (schema.additional && schema.additional !== true && (schema.additional.fields?.length || schema.additional.variants?.length)) return schema.additional;
  return undefined;
}

export function RefLink({ name }: { name: string }) {
  return (
    <a href={`#${schemaAnchor(name)}`} className="ref-link" translate="no">
      {name}
    </a>
  );
}

/** "string · date-time", "array of Message", "object", with links to named schemas. */
export function TypeLabel({ schema }: { schema: SchemaView }) {
  const t = useTranslations("apiReference");
  let label: React.ReactNode;
  if (schema.items) {
    const item = schema.items;
    label = (
      <>
        {t.rich("type.arrayOf", {
          item: () => (item.refName ? <RefLink name={item.refName} /> : item.variants ? t("type.alternatives") : <Code>{item.type}</Code>),
        })}
        {item.format ? <Code>{` · ${item.format}`}</Code> : null}
      </>
    );
  } else if (schema.additional && schema.additional !== true && !schema.fields) {
    const value = schema.additional;
    label = t.rich("type.mapOf", { value: () => (value.refName ? <RefLink name={value.refName} /> : <Code>{value.type}</Code>) });
  } else if (schema.refName) {
    label = (
      <>
        <RefLink name={schema.refName} /> <Code>({schema.type})</Code>
      </>
    );
  } else {
    label = (
      <Code>
        {schema.type}
        {schema.format ? ` · ${schema.format}` : null}
      </Code>
    );
  }
  return (
    <span className="ref-type">
      {label}
      {schema.nullable ? ` · ${t("type.nullable")}` : null}
    </span>
  );
}

function Values({ values }: { values: unknown[] }) {
  const t = useTranslations("apiReference");
  return (
    <p className="ref-values">
      <span>{values.length === 1 ? t("values.always") : t("values.oneOf")}</span>
      {values.map((value, index) => (
        <code key={index} className="ref-code" translate="no">
          {typeof value === "string" ? value : JSON.stringify(value)}
        </code>
      ))}
    </p>
  );
}

/** A limit in the reader's words: "1 to 200 characters", "al menos 1 elemento", "valor padrão 50". */
function LimitText({ limit }: { limit: Limit }) {
  const t = useTranslations("apiReference.limit");
  switch (limit.kind) {
    case "exactly":
      return limit.unit === "item" ? t("exactlyItems", { n: limit.n }) : t("exactlyCharacters", { n: limit.n });
    case "between":
      if (limit.unit === "character") return t("betweenCharacters", { min: limit.min, max: limit.max });
      if (limit.unit === "item") return t("betweenItems", { min: limit.min, max: limit.max });
      return t("between", { min: limit.min, max: limit.max });
    case "atLeast":
      if (limit.unit === "character") return t("atLeastCharacters", { n: limit.n });
      if (limit.unit === "item") return t("atLeastItems", { n: limit.n });
      return t("atLeast", { n: limit.n });
    case "atMost":
      if (limit.unit === "character") return t("atMostCharacters", { n: limit.n });
      if (limit.unit === "item") return t("atMostItems", { n: limit.n });
      return t("atMost", { n: limit.n });
    case "moreThan":
      return t("moreThan", { n: limit.n });
    case "lessThan":
      return t("lessThan", { n: limit.n });
    case "pattern":
      return t.rich("pattern", { value: () => <Code>{limit.value}</Code> });
    case "default":
      return t.rich("default", { value: () => <Code>{limit.value}</Code> });
  }
}

function FieldsSee({ name }: { name: string }) {
  const t = useTranslations("apiReference");
  return <p className="ref-note">{t.rich("fieldsSee", { link: () => <RefLink name={name} /> })}</p>;
}

/** Description, allowed values, limits and example of a field or parameter. */
export function Facts({ schema, description }: { schema: SchemaView; description?: string }) {
  const t = useTranslations("apiReference");
  const text = description ?? schema.description;
  const raw = schema.example !== undefined && !schema.fields && !schema.values ? JSON.stringify(schema.example) : undefined;
  const example = raw && raw.length > 80 ? `${raw.slice(0, 77)}…` : raw;
  const notes: React.ReactNode[] = [
    ...schema.constraints.map((limit, index) => <LimitText key={`limit-${index}`} limit={limit} />),
    ...(example ? [t.rich("example", { value: () => <Code key="example">{example}</Code> })] : []),
  ];
  return (
    <>
      {text ? <Markdown text={text} className="mt-1" /> : null}
      {schema.values ? <Values values={schema.values} /> : null}
      {notes.length > 0 ? (
        <p className="ref-note">
          {notes.map((note, index) => (
            <Fragment key={index}>
              {index > 0 ? " · " : null}
              {note}
            </Fragment>
          ))}
        </p>
      ) : null}
      {schema.truncated && schema.refName ? <FieldsSee name={schema.refName} /> : null}
    </>
  );
}

function FieldRow({ field, depth }: { field: FieldView; depth: number }) {
  const t = useTranslations("apiReference");
  const child = childOf(field.schema);
  const count = child?.fields?.length ?? child?.variants?.length ?? 0;
  return (
    <li className="ref-field">
      <div className="ref-head">
        <code className="ref-name" translate="no">
          {field.name}
        </code>
        <TypeLabel schema={field.schema} />
        {field.required ? <span className="ref-required">{t("required")}</span> : <span className="ref-optional">{t("optional")}</span>}
      </div>
      <Facts schema={field.schema} />
      {child ? (
        <details className="ref-nested">
          <summary>{t.rich(child.variants ? "nested.shapes" : "nested.fields", { count, name: () => <Code>{field.name}</Code> })}</summary>
          <div>
            <SchemaBody schema={child} depth={depth + 1} />
          </div>
        </details>
      ) : null}
    </li>
  );
}

/** The fields of an object, or its alternatives, as a nested list. */
export function SchemaBody({ schema, depth = 0 }: { schema: SchemaView; depth?: number }) {
  const t = useTranslations("apiReference");
  // An object whose fields combine in set ways: its fields, then the shapes they must take.
  if (schema.variants?.length && schema.fields?.length) {
    return (
      <>
        <SchemaBody schema={{ ...schema, variants: undefined }} depth={depth} />
        <SchemaBody schema={{ ...schema, fields: undefined }} depth={depth} />
      </>
    );
  }
  if (schema.variants?.length) {
    return (
      <div className="space-y-3 py-2">
        <p className="ref-type">{schema.type === "one of" || schema.exclusive ? t("shapes.exactlyOne") : t("shapes.anyOf")}</p>
        {schema.variants.map((variant, index) => {
          const child = childOf(variant);
          return (
            <div key={index} className="ref-box px-3 py-2">
              <p className="ref-type font-semibold">
                {variant.title ? <ApiText>{variant.title}</ApiText> : variant.refName ? <RefLink name={variant.refName} /> : t("shapes.numbered", { n: index + 1 })}{" "}
                {variant.refName ? <Code>({variant.type})</Code> : <TypeLabel schema={variant} />}
              </p>
              {variant.description ? <Markdown text={variant.description} className="mt-1" /> : null}
              {child ? <SchemaBody schema={child} depth={depth + 1} /> : null}
            </div>
          );
        })}
      </div>
    );
  }
  if (!schema.fields?.length) {
    return <p className="ref-type py-2">{schema.additional ? t("anyObject") : t("noFields")}</p>;
  }
  return (
    <ul className="text-sm">
      {schema.fields.map((field) => (
        <FieldRow key={field.name} field={field} depth={depth} />
      ))}
    </ul>
  );
}

/** A body or a component: what it is, its description, and its fields. */
export function SchemaBlock({ schema, showDescription = true }: { schema: SchemaView; showDescription?: boolean }) {
  const t = useTranslations("apiReference");
  const child = childOf(schema);
  return (
    <div>
      <p className="ref-type">
        <TypeLabel schema={schema} />
      </p>
      {showDescription && schema.description ? <Markdown text={schema.description} className="mt-1" /> : null}
      {schema.values ? <Values values={schema.values} /> : null}
      {schema.truncated && schema.refName ? (
        <FieldsSee name={schema.refName} />
      ) : child ? (
        <div className="ref-box mt-2 px-3">
          <SchemaBody schema={child} />
        </div>
      ) : schema.additional === true ? (
        <p className="ref-type mt-1">{t("anyObject")}</p>
      ) : null}
    </div>
  );
}
