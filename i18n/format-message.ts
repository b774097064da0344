import compile from "icu-minify/compile";
import type { CompiledMessage } from "icu-minify/format";
import formatCompiled from "use-intl/format-message/format-only";

/**
 * How next-intl formats a message on the server (server components and the server render of
 * client components); next.config.mjs puts it in place of next-intl's own formatter there.
 *
 * The browser is sent its catalogs already compiled (i18n/messages.ts, `compiledMessages`) and
 * formats them with next-intl's small formatter alone, so it never downloads an ICU parser. The
 * server meets both kinds: the catalogs it reads itself are ICU text, compiled here on first use
 * and kept; the ones the browser is given arrive compiled, and are never ambiguous: a compiled
 * message is an array, or a text with none of ICU's special characters (`compiledMessages` puts
 * any other text in an array).
 */
const compiledByText = new Map<string, CompiledMessage>();

function compiledOf(text: string): CompiledMessage {
  let compiled = compiledByText.get(text);
  if (compiled === undefined) {
    compiled = compile(text);
    compiledByText.set(text, compiled);
  }
  return compiled;
}

export default function formatMessage(...[key, message, values, options]: Parameters<typeof formatCompiled>): ReturnType<typeof formatCompiled> {
  return formatCompiled(key, typeof message === "string" ? compiledOf(message) : message, values, options);
}
