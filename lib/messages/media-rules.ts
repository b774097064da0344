import { isUtf8 } from "node:buffer";

import { formatSize, limitInWords, stickerLimits, maxCaptionLength, maxFilenameLength, type MediaType, mediaLimits } from "./media-limits";

export { type MediaType, mediaLimits, mediaTypes } from "./media-limits";

export type MediaInput = {
  mime_type: string;
  data: string;
  filename?: string | null;
  caption?: string | null;
};

/** `tooLarge`: the file is over the network's limit for its kind (a 413 `media_too_large`). */
export type MediaIssue = { path: string; message: string; tooLarge?: true };

export type MediaValidation =
  | { ok: true; bytes: Buffer; mimeType: string }
  | { ok: false; issues: MediaIssue[] };

const whitespace = /[\t\n\f\r ]/;
const allWhitespace = /[\t\n\f\r ]/g;
const base64Body = /^[A-Za-z0-9+/]*$/;

/** The bare media type ("audio/ogg" for "Audio/OGG; codecs=opus"), lower-cased. */
export function normalizeMimeType(mimeType: string): string {
  return mimeType.split(";", 1)[0].trim().toLowerCase();
}

function stripBase64(data: string): { body: string; padding: number } | null {
  const compact = whitespace.test(data) ? data.replace(allWhitespace, "") : data;
  const padding = compact.endsWith("==") ? 2 : compact.endsWith("=") ? 1 : 0;
  const body = compact.slice(0, compact.length - padding);
  if (padding > 0 && compact.length % 4 !== 0) return null;
  if (body.length % 4 === 1) return null;
  if (!base64Body.test(body)) return null;
  return { body, padding };
}

/**
 * Size in bytes that `data` decodes to, or null when it is not standard base64. Lets a
 * caller refuse an oversized upload before allocating the decoded buffer.
 */
export function measureBase64({ data }: { data: string }): number | null {
  const stripped = stripBase64(data);
  if (!stripped) return null;
  return Math.floor((stripped.body.length * 3) / 4);
}

/**
 * Decodes standard base64 (RFC 4648 alphabet, padding optional, whitespace such as line
 * breaks ignored). Node's own decoder silently skips foreign characters and accepts the URL
 * alphabet, which would let a corrupted upload through as different bytes.
 */
export function decodeBase64Strict(data: string): Buffer | null {
  const stripped = stripBase64(data);
  if (!stripped) return null;
  return Buffer.from(stripped.body, "base64");
}

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false;
  return signature.every((byte, index) => bytes[offset + index] === byte);
}

const ascii = (text: string) => Array.from(text, (char) => char.charCodeAt(0));

const signatures = {
  jpeg: [0xff, 0xd8, 0xff],
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  pdf: ascii("%PDF-"),
  ogg: ascii("OggS"),
  amr: ascii("#!AMR"),
  ftyp: ascii("ftyp"),
  id3: ascii("ID3"),
  adif: ascii("ADIF"),
  ole: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1],
  zip: [0x50, 0x4b, 0x03, 0x04],
} as const;

/** Offset just past a leading ID3v2 tag, or 0 when there is none. */
function skipId3(bytes: Uint8Array): number {
  if (!startsWith(bytes, signatures.id3) || bytes.length < 10) return 0;
  // The tag size is a 28-bit "syncsafe" integer: 7 bits per byte.
  const size = (bytes[6] << 21) | (bytes[7] << 14) | (bytes[8] << 7) | bytes[9];
  const hasFooter = (bytes[5] & 0x10) !== 0;
  return 10 + size + (hasFooter ? 10 : 0);
}

function isMpegFrameSync(bytes: Uint8Array, offset = 0): boolean {
  return bytes.length >= offset + 2 && bytes[offset] === 0xff && (bytes[offset + 1] & 0xe0) === 0xe0;
}

function isAdtsHeader(bytes: Uint8Array, offset = 0): boolean {
  // 12-bit sync word followed by layer 00, which is what tells ADTS apart from MPEG audio.
  return bytes.length >= offset + 2 && bytes[offset] === 0xff && (bytes[offset + 1] & 0xf6) === 0xf0;
}

/**
 * Whether the leading bytes are what the declared type starts with. Plain text has no
 * signature, so it must be valid UTF-8 without NUL bytes instead.
 */
export function sniffMatchesMime({ bytes, mimeType }: { bytes: Uint8Array; mimeType: string }): boolean {
  switch (normalizeMimeType(mimeType)) {
    case "image/jpeg":
      return startsWith(bytes, signatures.jpeg);
    case "image/png":
      return startsWith(bytes, signatures.png);
    case "application/pdf":
      return startsWith(bytes, signatures.pdf);
    case "audio/ogg":
      return startsWith(bytes, signatures.ogg);
    case "audio/amr":
      return startsWith(bytes, signatures.amr);
    case "audio/mp4":
    case "video/mp4":
    case "video/3gpp":
      return startsWith(bytes, signatures.ftyp, 4);
    case "audio/mpeg":
      return startsWith(bytes, signatures.id3) || isMpegFrameSync(bytes);
    case "audio/aac": {
      const start = skipId3(bytes);
      return isAdtsHeader(bytes, start) || startsWith(bytes, signatures.adif, start);
    }
    case "application/msword":
    case "application/vnd.ms-excel":
    case "application/vnd.ms-powerpoint":
      return startsWith(bytes, signatures.ole);
    case "application/vnd.openxmlformats-officedocument.wordprocessingml.document":
    case "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet":
    case "application/vnd.openxmlformats-officedocument.presentationml.presentation":
      return startsWith(bytes, signatures.zip);
    case "text/plain":
      return isUtf8(bytes) && !bytes.includes(0);
    default:
      return false;
  }
}

// Counted in Unicode code points, so an emoji counts as one character, as a user would count.
function countCharacters(text: string): number {
  return Array.from(text).length;
}

const controlCharacters = /[\u0000-\u001f\u007f-\u009f]/;

function checkFilename(filename: string): string | null {
  const length = countCharacters(filename);
  if (length === 0 || filename.trim() === "") return "media.filename must not be empty.";
  if (length > maxFilenameLength) {
    return `media.filename must be at most ${maxFilenameLength} characters.`;
  }
  if (/[/\\]/.test(filename)) return "media.filename must not contain path separators (/ or \\).";
  if (controlCharacters.test(filename)) return "media.filename must not contain control characters.";
  if (filename === "." || filename === "..") return "media.filename must be a file name.";
  return null;
}

function formatBytes(bytes: number): string {
  return bytes.toLocaleString("en-US");
}

/**
 * Applies the media rules of POST /v1/messages for a non-text message: allowed MIME type for
 * the message type, strict base64, decoded size limit, magic numbers, filename and caption.
 * Every problem found is reported, each naming its field.
 */
export function validateMedia({ type, media }: { type: MediaType; media: MediaInput }): MediaValidation {
  const issues: MediaIssue[] = [];
  const limits = mediaLimits[type];
  const allowed: readonly string[] = limits.mimeTypes;

  const mimeType = normalizeMimeType(media.mime_type);
  const mimeAllowed = allowed.includes(mimeType);
  if (!mimeAllowed) {
    issues.push({
      path: "media.mime_type",
      message: `media.mime_type "${media.mime_type}" is not allowed for ${type} messages; use one of: ${allowed.join(", ")}.`,
    });
  }

  let bytes: Buffer | null = null;
  const size = measureBase64({ data: media.data });
  if (size === null) {
    issues.push({ path: "media.data", message: "media.data must be standard base64." });
  } else if (size === 0) {
    issues.push({ path: "media.data", message: "media.data must not be empty." });
  } else if (size > limits.maxBytes) {
    issues.push({
      path: "media.data",
      message: `${limitInWords(type)} (${formatBytes(limits.maxBytes)} bytes); this file is ${formatSize(size)} (${formatBytes(size)} bytes).`,
      tooLarge: true,
    });
  } else {
    bytes = decodeBase64Strict(media.data);
    if (bytes && mimeAllowed && !sniffMatchesMime({ bytes, mimeType })) {
      issues.push({
        path: "media.data",
        message:
          mimeType === "text/plain"
            ? "media.data is not UTF-8 text without NUL bytes, as text/plain requires."
            : `media.data does not look like ${mimeType}: its first bytes do not match that format.`,
      });
    }
  }

  const filename = media.filename ?? undefined;
  if (filename === undefined) {
    if (type === "document") {
      issues.push({ path: "media.filename", message: "media.filename is required for document messages." });
    }
  } else {
    const problem = checkFilename(filename);
    if (problem) issues.push({ path: "media.filename", message: problem });
  }

  const caption = media.caption ?? undefined;
  if (caption !== undefined) {
    if (type === "audio") {
      issues.push({ path: "media.caption", message: "media.caption is not allowed for audio messages." });
    } else if (countCharacters(caption) > maxCaptionLength) {
      issues.push({
        path: "media.caption",
        message: `media.caption must be at most ${formatBytes(maxCaptionLength)} characters.`,
      });
    }
  }

  if (issues.length > 0 || !bytes) return { ok: false, issues };
  return { ok: true, bytes, mimeType };
}

/** Whether a WebP image is animated: its VP8X header sets the animation flag. */
function isAnimatedWebp(bytes: Uint8Array): boolean {
  return bytes.length >= 21 && String.fromCharCode(...bytes.subarray(12, 16)) === "VP8X" && (bytes[20] & 0x02) !== 0;
}

/** The network's size limit for a sticker: 100 KB static, 500 KB animated. */
export function stickerSizeIssue(bytes: Uint8Array): MediaIssue | null {
  const animated = isAnimatedWebp(bytes);
  const max = animated ? stickerLimits.animatedMaxBytes : stickerLimits.staticMaxBytes;
  if (bytes.length <= max) return null;
  return { path: "media.data", message: `${limitInWords("sticker", { animated })}; this file is ${formatSize(bytes.length)} (${formatBytes(bytes.length)} bytes).`, tooLarge: true };
}

