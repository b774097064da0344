import { mediaLimits, type MediaType, normalizeMimeType, sniffMatchesMime } from "./media-rules";

/** What a received file is stored as: its type read from the bytes, never taken on trust. */
export type InboundMediaKind = { mimeType: string; type: MediaType };

export const OCTET_STREAM = "application/octet-stream";

const isWebp = (bytes: Uint8Array) =>
  bytes.length >= 12 && Buffer.from(bytes.subarray(0, 4)).toString("latin1") === "RIFF" && Buffer.from(bytes.subarray(8, 12)).toString("latin1") === "WEBP";

/** The types a message may send, plus webp (the network's stickers). */
const ALLOWED: Record<string, MediaType> = {
  ...Object.fromEntries(
    (Object.entries(mediaLimits) as [MediaType, { mimeTypes: readonly string[] }][]).flatMap(([type, rule]) => rule.mimeTypes.map((mime) => [mime, type])),
  ),
  "image/webp": "image",
};

/** Types shown in place (inline) when served; everything else downloads as an attachment. */
export function isInlineMediaType(mimeType: string): boolean {
  const type = ALLOWED[normalizeMimeType(mimeType)];
  return type === "image" || type === "audio" || type === "video";
}

export function isAllowedMediaType(mimeType: string): boolean {
  return normalizeMimeType(mimeType) in ALLOWED;
}

function matches(bytes: Uint8Array, mimeType: string): boolean {
  return mimeType === "image/webp" ? isWebp(bytes) : sniffMatchesMime({ bytes, mimeType });
}

// Tried in this order when the declared type is wrong; text/plain is never guessed (any
// bytes that are valid UTF-8 would pass, an HTML page included).
const GUESSES = [
  "image/jpeg",
  "image/png",
  "image/webp",
  "application/pdf",
  "audio/ogg",
  "audio/amr",
  "video/mp4",
  "audio/mpeg",
  "audio/aac",
  "application/msword",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
];

/**
 * A received file's stored type: the declared type when it is on the
 * allow-list and the bytes bear it out, else the allow-listed type the bytes show, else a
 * document of type `application/octet-stream`. A page declared as `text/html` or an SVG is
 * never stored as something a browser would run.
 */
export function inboundMediaKind({ bytes, declared }: { bytes: Uint8Array; declared: string }): InboundMediaKind {
  const mime = normalizeMimeType(declared);
  if (ALLOWED[mime] && matches(bytes, mime)) return { mimeType: mime, type: ALLOWED[mime] };
  const guess = GUESSES.find((candidate) => matches(bytes, candidate));
  if (guess) return { mimeType: guess, type: ALLOWED[guess] };
  return { mimeType: OCTET_STREAM, type: "document" };
}
