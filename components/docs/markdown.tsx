import { Fragment } from "react";

// The documents' descriptions use a small part of Markdown: paragraphs, "- " lists,
// `code`, **bold** and [links](url). Rendered as React elements, never as raw HTML.

const inlinePattern = /(`[^`]+`|\*\*[^*]+\*\*|\[[^\]]+\]\([^)\s]+\))/g;


function safeHref(href: string) {
  return /^(https?:|mailto:|\/|#)/i.test(href) ? href : undefined;
}

export function Inline({ text }: { text: string }) {
  const parts = text.split(inlinePattern);
  return (
    <>
      {parts.map((part, index) => {
        if (part.startsWith("`") && part.endsWith("`") && part.length > 1) {
          return (
            <code key={index} className="ref-code" translate="no">
              {part.slice(1, -1)}
            </code>
          );
        }
        if (part.startsWith("**") && part.endsWith("**") && part.length > 4) {
          return (
            <strong key={index} className="font-semibold text-slate-900">
              {part.slice(2, -2)}
            </strong>
          );
        }
        const link = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(part);
        if (link) {
          const href = safeHref(link[2]);
          return href ? (
            <a key={index} href={href} className="ref-link">
              {link[1]}
            </a>
          ) : (
            <Fragment key={index}>{link[1]}</Fragment>
          );
        }
        return <Fragment key={index}>{part}</Fragment>;
      })}
    </>
  );
}

/**
 * Text of an OpenAPI document (descriptions, summaries) stays in English whatever the reader's
 * language, as Stripe's reference does: it is marked as English content (`lang="en"`, so a screen
 * reader pronounces it as English, and `data-user-content`, not the interface's own words). Text
 * the page itself says, from the catalogs, passes `fromDocument={false}`.
 */
export function Markdown({ text, className = "", fromDocument = true }: { text: string; className?: string; fromDocument?: boolean }) {
  const marks = fromDocument ? { lang: "en", "data-user-content": true } : {};
  const blocks = text.split(/\n\s*\n/).map((block) => block.trim()).filter(Boolean);
  const cls = className ? `ref-prose ${className}` : "ref-prose";
  // One paragraph (most descriptions) needs no wrapper.
  if (blocks.length === 1 && !blocks[0].split("\n").every((line) => /^\s*[-*] /.test(line))) {
    return (
      <p className={cls} {...marks}>
        <Inline text={blocks[0].split("\n").join(" ")} />
      </p>
    );
  }
  return (
    <div className={cls} {...marks}>
      {blocks.map((block, index) => {
        const lines = block.split("\n");
        if (lines.every((line) => /^\s*[-*] /.test(line))) {
          return (
            <ul key={index} className="list-disc space-y-1 pl-5">
              {lines.map((line, i) => (
                <li key={i}>
                  <Inline text={line.replace(/^\s*[-*] /, "")} />
                </li>
              ))}
            </ul>
          );
        }
        return (
          <p key={index}>
            <Inline text={lines.join(" ")} />
          </p>
        );
      })}
    </div>
  );
}
