import { type FieldView, type SchemaView, schemaAnchor } from "@/lib/openapi/reference";
import { Markdown } from "./markdown";

// Class names starting with `ref-` are defined once in app/globals.css.

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
    <a href={`#${schemaAnchor(name)}`} className="ref-link">
      {name}
    </a>
  );
}

/** "string · date-time", "array of Message", "object", with links to named schemas. */
export function TypeLabel({ schema }: { schema: SchemaView }) {
  let label: React.ReactNode;
  if (schema.items) {
    const item = schema.items;
    label = (
      <>
        array of {item.refName ? <RefLink name={item.refName} /> : item.variants ? "alternatives" : item.type}
        {item.format ? ` · ${item.format}` : null}
      </>
    );
  } else if (schema.additional && schema.additional !== true && !schema.fields) {
    const value = schema.additional;
    label = <>map of {value.refName ? <RefLink name={value.refName} /> : value.type}</>;
  } else if (schema.refName) {
    label = (
      <>
        <RefLink name={schema.refName} /> ({schema.type})
      </>
    );
  } else {
    label = (
      <>
        {schema.type}
        {schema.format ? ` · ${schema.format}` : null}
      </>
    );
  }
  return (
    <span className="ref-type">
      {label}
      {schema.nullable ? " · nullable" : null}
    </span>
  );
}

function Values({ values, single = "Always" }: { values: unknown[]; single?: string }) {
  return (
    <p className="ref-values">
      <span>{values.length === 1 ? single : "One of"}</span>
      {values.map((value, index) => (
        <code key={index} className="ref-code">
          {typeof value === "string" ? value : JSON.stringify(value)}
        </code>
      ))}
    </p>
  );
}

/** Description, allowed values, limits and example of a field or parameter. */
export function Facts({ schema, description }: { schema: SchemaView; description?: string }) {
  const text = description ?? schema.description;
  const raw = schema.example !== undefined && !schema.fields && !schema.values ? JSON.stringify(schema.example) : undefined;
  const example = raw && raw.length > 80 ? `${raw.slice(0, 77)}…` : raw;
  const notes = [...schema.constraints, ...(example ? [`example ${example}`] : [])];
  return (
    <>
      {text ? <Markdown text={text} className="mt-1" /> : null}
      {schema.values ? <Values values={schema.values} /> : null}
      {notes.length > 0 ? <p className="ref-note">{notes.join(" · ")}</p> : null}
      {schema.truncated && schema.refName ? (
        <p className="ref-note">
          Fields: see <RefLink name={schema.refName} />.
        </p>
      ) : null}
    </>
  );
}

function FieldRow({ field, depth }: { field: FieldView; depth: number }) {
  const child = childOf(field.schema);
  const count = child?.fields?.length ?? child?.variants?.length ?? 0;
  return (
    <li className="ref-field">
      <div className="ref-head">
        <code className="ref-name">{field.name}</code>
        <TypeLabel schema={field.schema} />
        {field.required ? <span className="ref-required">required</span> : <span className="ref-optional">optional</span>}
      </div>
      <Facts schema={field.schema} />
      {child ? (
        <details className="ref-nested">
          <summary>
            {child.variants ? `${count} shapes` : `${count} ${count === 1 ? "field" : "fields"}`} of {field.name}
          </summary>
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
        <p className="ref-type">{schema.type === "one of" || schema.exclusive ? "Exactly one of these shapes:" : "Any of these shapes:"}</p>
        {schema.variants.map((variant, index) => {
          const child = childOf(variant);
          return (
            <div key={index} className="ref-box px-3 py-2">
              <p className="ref-type font-semibold">
                {variant.title ?? (variant.refName ? <RefLink name={variant.refName} /> : `Shape ${index + 1}`)}{" "}
                {variant.refName ? `(${variant.type})` : <TypeLabel schema={variant} />}
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
    return <p className="ref-type py-2">{schema.additional ? "Any JSON object." : "No fields."}</p>;
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
  const child = childOf(schema);
  return (
    <div>
      <p className="ref-type">
        <TypeLabel schema={schema} />
      </p>
      {showDescription && schema.description ? <Markdown text={schema.description} className="mt-1" /> : null}
      {schema.values ? <Values values={schema.values} /> : null}
      {schema.truncated && schema.refName ? (
        <p className="ref-note">
          Fields: see <RefLink name={schema.refName} />.
        </p>
      ) : child ? (
        <div className="ref-box mt-2 px-3">
          <SchemaBody schema={child} />
        </div>
      ) : schema.additional === true ? (
        <p className="ref-type mt-1">Any JSON object.</p>
      ) : null}
    </div>
  );
}
