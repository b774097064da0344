// The media rules of SPEC section 4, free of Node APIs so the composer can check files before upload.
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
    maxBytes: 20 * MiB,
  },
} as const satisfies Record<MediaType, { mimeTypes: readonly string[]; maxBytes: number }>;

export const maxCaptionLength = 1024;
export const maxFilenameLength = 255;
