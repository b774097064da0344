// The network's media rules, free of Node APIs so the composer can check files before upload.
// Sizes are the network's "MB": 1,048,576 bytes.
export const mediaTypes = ["image", "document", "audio", "video"] as const;
export type MediaType = (typeof mediaTypes)[number];

export const MiB = 1024 * 1024;

export const mediaLimits = {
  image: { mimeTypes: ["image/jpeg", "image/png"], maxBytes: 5 * MiB },
  audio: {
    mimeTypes: ["audio/aac", "audio/mp4", "audio/mpeg", "audio/amr", "audio/ogg"],
    maxBytes: 16 * MiB,
  },
  video: { mimeTypes: ["video/mp4", "video/3gpp"], maxBytes: 16 * MiB },
  document: {
    mimeTypes: [
      "application/pdf",
      "application/msword",
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      "application/vnd.ms-excel",
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      "application/vnd.ms-powerpoint",
      "application/vnd.openxmlformats-officedocument.presentationml.presentation",
      "text/plain",
    ],
    maxBytes: 100 * MiB,
  },
} as const satisfies Record<MediaType, { mimeTypes: readonly string[]; maxBytes: number }>;

/** Stickers are WebP images: at most 100 KB, or 500 KB when animated. */
export const stickerLimits = { staticMaxBytes: 100 * 1024, animatedMaxBytes: 500 * 1024 } as const;

/**
 * The largest file the JSON API (and so the inbox's composer) can carry: the body of
 * POST /v1/messages is at most 32 MiB and Base64 makes a file a third larger, with a little
 * room for the rest of the JSON. Documents the network would accept up to 100 MB must be
 * smaller than this to be sent through Chorus.
 */
export const MAX_JSON_MEDIA_BYTES = Math.floor(((32 * MiB - 64 * 1024) * 3) / 4);

/** A size as people read it: "5 MB", "100 KB", "23.9 MB". */
export function formatSize(bytes: number): string {
  if (bytes >= MiB) return `${Number((bytes / MiB).toFixed(1))} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

const kindNames: Record<MediaType | "sticker", string> = { image: "Images", audio: "Audio files", video: "Videos", document: "Documents", sticker: "Stickers" };

/** The network's limit for a kind, in words: "Images can be at most 5 MB". */
export function limitInWords(type: MediaType | "sticker", { animated = false }: { animated?: boolean } = {}): string {
  if (type === "sticker") {
    return animated
      ? `Animated stickers can be at most ${formatSize(stickerLimits.animatedMaxBytes)}`
      : `Stickers can be at most ${formatSize(stickerLimits.staticMaxBytes)} (${formatSize(stickerLimits.animatedMaxBytes)} when animated)`;
  }
  return `${kindNames[type]} can be at most ${formatSize(mediaLimits[type].maxBytes)}`;
}

export const maxCaptionLength = 1024;
export const maxFilenameLength = 255;
