import { describe, expect, it } from "vitest";
import {
  decodeBase64Strict,
  measureBase64,
  mediaLimits,
  mediaTypes,
  sniffMatchesMime,
  validateMedia,
  type MediaInput,
  type MediaType,
} from "@/lib/messages/media-rules";

const MiB = 1024 * 1024;

const samples = {
  jpeg: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46]),
  png: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]),
  pdf: Buffer.from("%PDF-1.7\n%âãÏÓ\n1 0 obj\n", "latin1"),
  ogg: Buffer.from("OggS\u0000\u0002\u0000\u0000", "latin1"),
  amr: Buffer.from("#!AMR\n\u003c\u0000", "latin1"),
  mp4: Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from("ftypisom\u0000\u0000\u0002\u0000", "latin1")]),
  m4a: Buffer.concat([Buffer.from([0, 0, 0, 0x1c]), Buffer.from("ftypM4A \u0000\u0000\u0000\u0000", "latin1")]),
  threeGpp: Buffer.concat([Buffer.from([0, 0, 0, 0x14]), Buffer.from("ftyp3gp4\u0000\u0000\u0000\u0000", "latin1")]),
  mp3Id3: Buffer.from("ID3\u0004\u0000\u0000\u0000\u0000\u0000\u0000", "latin1"),
  mp3Frame: Buffer.from([0xff, 0xfb, 0x90, 0x64, 0x00]),
  adts: Buffer.from([0xff, 0xf1, 0x50, 0x80, 0x02, 0x1f, 0xfc]),
  adtsMpeg2: Buffer.from([0xff, 0xf9, 0x50, 0x80, 0x02, 0x1f, 0xfc]),
  adif: Buffer.from("ADIF\u0000\u0000", "latin1"),
  ole: Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0x00, 0x00]),
  zip: Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00]),
  text: Buffer.from("Olá, your order #123 is ready 🌱\r\n", "utf8"),
};

const mime = {
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xls: "application/vnd.ms-excel",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ppt: "application/vnd.ms-powerpoint",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
};

function media(bytes: Buffer, mimeType: string, extra: Partial<MediaInput> = {}): MediaInput {
  return { mime_type: mimeType, data: bytes.toString("base64"), ...extra };
}

function issuesOf(type: MediaType, input: MediaInput) {
  const result = validateMedia({ type, media: input });
  return result.ok ? [] : result.issues;
}

function paddedTo(signature: Buffer, size: number): Buffer {
  const buffer = Buffer.alloc(size, 0x41);
  signature.copy(buffer);
  return buffer;
}

describe("media limits", () => {
  it("lists the four media types with their documented limits", () => {
    expect(mediaTypes).toEqual(["image", "document", "audio", "video"]);
    expect(mediaLimits.image.maxBytes).toBe(5 * MiB);
    expect(mediaLimits.audio.maxBytes).toBe(16 * MiB);
    expect(mediaLimits.video.maxBytes).toBe(16 * MiB);
    expect(mediaLimits.document.maxBytes).toBe(100 * MiB);
    expect(mediaLimits.document.mimeTypes).toHaveLength(8);
  });
});

describe("decodeBase64Strict", () => {
  it("decodes padded and unpadded standard base64", () => {
    expect(decodeBase64Strict("aGVsbG8=")?.toString()).toBe("hello");
    expect(decodeBase64Strict("aGVsbG8")?.toString()).toBe("hello");
    expect(decodeBase64Strict("aGk=")?.toString()).toBe("hi");
    expect(decodeBase64Strict("aGk")?.toString()).toBe("hi");
    expect(decodeBase64Strict("+/+/")).toEqual(Buffer.from([0xfb, 0xff, 0xbf]));
  });

  it("tolerates surrounding whitespace and line breaks", () => {
    expect(decodeBase64Strict("  aGVs\r\nbG8=\n")?.toString()).toBe("hello");
  });

  it("refuses characters outside the standard alphabet", () => {
    expect(decodeBase64Strict("aGVsbG8*")).toBeNull();
    expect(decodeBase64Strict("-_-_")).toBeNull();
    expect(decodeBase64Strict("aGVs bG8=!")).toBeNull();
    expect(decodeBase64Strict("data:image/png;base64,iVBORw0KGgo=")).toBeNull();
  });

  it("refuses misplaced or excess padding and impossible lengths", () => {
    expect(decodeBase64Strict("aG=k")).toBeNull();
    expect(decodeBase64Strict("aGk==")).toBeNull();
    expect(decodeBase64Strict("aGVsbG8===")).toBeNull();
    expect(decodeBase64Strict("aGVsb")).toBeNull();
    expect(decodeBase64Strict("=")).toBeNull();
  });

  it("measures the decoded size without decoding", () => {
    expect(measureBase64({ data: "aGVsbG8=" })).toBe(5);
    expect(measureBase64({ data: "aGVsbG8" })).toBe(5);
    expect(measureBase64({ data: "" })).toBe(0);
    expect(measureBase64({ data: "not base64!" })).toBeNull();
  });
});

describe("sniffMatchesMime", () => {
  const matches: [string, Buffer, string][] = [
    ["jpeg", samples.jpeg, "image/jpeg"],
    ["png", samples.png, "image/png"],
    ["pdf", samples.pdf, "application/pdf"],
    ["ogg", samples.ogg, "audio/ogg"],
    ["amr", samples.amr, "audio/amr"],
    ["AMR-WB", Buffer.from("#!AMR-WB\n"), "audio/amr"],
    ["mp4 video", samples.mp4, "video/mp4"],
    ["m4a audio", samples.m4a, "audio/mp4"],
    ["3gpp video", samples.threeGpp, "video/3gpp"],
    ["mp3 with ID3 tag", samples.mp3Id3, "audio/mpeg"],
    ["mp3 frame", samples.mp3Frame, "audio/mpeg"],
    ["aac ADTS (MPEG-4)", samples.adts, "audio/aac"],
    ["aac ADTS (MPEG-2)", samples.adtsMpeg2, "audio/aac"],
    ["aac ADIF", samples.adif, "audio/aac"],
    ["aac ADTS after an ID3 tag", Buffer.concat([samples.mp3Id3, samples.adts]), "audio/aac"],
    ["doc", samples.ole, mime.doc],
    ["xls", samples.ole, mime.xls],
    ["ppt", samples.ole, mime.ppt],
    ["docx", samples.zip, mime.docx],
    ["xlsx", samples.zip, mime.xlsx],
    ["pptx", samples.zip, mime.pptx],
    ["UTF-8 text", samples.text, "text/plain"],
    ["text with a charset parameter", samples.text, "text/plain; charset=utf-8"],
    ["upper-case mime type", samples.png, "IMAGE/PNG"],
  ];

  it.each(matches)("recognises %s", (_name, bytes, mimeType) => {
    expect(sniffMatchesMime({ bytes, mimeType })).toBe(true);
  });

  const mismatches: [string, Buffer, string][] = [
    ["png declared as jpeg", samples.png, "image/jpeg"],
    ["jpeg declared as png", samples.jpeg, "image/png"],
    ["truncated png signature", samples.png.subarray(0, 7), "image/png"],
    ["zip declared as pdf", samples.zip, "application/pdf"],
    ["pdf declared as docx", samples.pdf, mime.docx],
    ["zip declared as doc", samples.zip, mime.doc],
    ["ogg declared as amr", samples.ogg, "audio/amr"],
    ["amr declared as ogg", samples.amr, "audio/ogg"],
    ["mp3 frame declared as aac", samples.mp3Frame, "audio/aac"],
    ["jpeg declared as mp4", samples.jpeg, "video/mp4"],
    ["ftyp at the wrong offset", Buffer.from("ftypisom00000000"), "video/3gpp"],
    ["text with a NUL byte", Buffer.from("hello\u0000world"), "text/plain"],
    ["invalid UTF-8 text", Buffer.from([0x68, 0xc3, 0x28]), "text/plain"],
    ["empty bytes as jpeg", Buffer.alloc(0), "image/jpeg"],
    ["an unknown mime type", samples.png, "image/gif"],
  ];

  it.each(mismatches)("refuses %s", (_name, bytes, mimeType) => {
    expect(sniffMatchesMime({ bytes, mimeType })).toBe(false);
  });
});

describe("validateMedia", () => {
  const accepted: [MediaType, Buffer, string, Partial<MediaInput>][] = [
    ["image", samples.jpeg, "image/jpeg", { caption: "Our new plant" }],
    ["image", samples.png, "image/png", {}],
    ["audio", samples.adts, "audio/aac", {}],
    ["audio", samples.m4a, "audio/mp4", {}],
    ["audio", samples.mp3Frame, "audio/mpeg", {}],
    ["audio", samples.amr, "audio/amr", {}],
    ["audio", samples.ogg, "audio/ogg; codecs=opus", {}],
    ["video", samples.mp4, "video/mp4", { caption: "" }],
    ["video", samples.threeGpp, "video/3gpp", {}],
    ["document", samples.pdf, "application/pdf", { filename: "invoice-2026.pdf", caption: "Your invoice" }],
    ["document", samples.ole, mime.doc, { filename: "letter.doc" }],
    ["document", samples.zip, mime.docx, { filename: "letter.docx" }],
    ["document", samples.ole, mime.xls, { filename: "prices.xls" }],
    ["document", samples.zip, mime.xlsx, { filename: "prices.xlsx" }],
    ["document", samples.ole, mime.ppt, { filename: "deck.ppt" }],
    ["document", samples.zip, mime.pptx, { filename: "deck.pptx" }],
    ["document", samples.text, "text/plain", { filename: "notes.txt" }],
  ];

  it.each(accepted)("accepts %s %s", (type, bytes, mimeType, extra) => {
    const result = validateMedia({ type, media: media(bytes, mimeType, extra) });
    expect(result).toEqual({ ok: true, bytes, mimeType: mimeType.split(";")[0] });
  });

  const wrongMime: [MediaType, Buffer, string][] = [
    ["image", samples.jpeg, "image/gif"],
    ["image", samples.mp4, "video/mp4"],
    ["audio", samples.mp4, "video/mp4"],
    ["audio", samples.ogg, "audio/opus"],
    ["video", samples.m4a, "audio/mp4"],
    ["video", samples.mp4, "video/quicktime"],
    ["document", samples.jpeg, "image/jpeg"],
    ["document", samples.zip, "application/zip"],
  ];

  it.each(wrongMime)("refuses a %s message declared as %s", (type, bytes, mimeType) => {
    const issues = issuesOf(type, media(bytes, mimeType, { filename: "file.bin" }));
    expect(issues).toEqual([
      { path: "media.mime_type", message: expect.stringContaining(`not allowed for ${type} messages`) },
    ]);
  });

  it("refuses bytes that do not match the declared type", () => {
    expect(issuesOf("image", media(samples.png, "image/jpeg"))).toEqual([
      { path: "media.data", message: expect.stringContaining("does not look like image/jpeg") },
    ]);
    expect(issuesOf("document", media(samples.zip, "application/pdf", { filename: "a.pdf" }))).toEqual([
      { path: "media.data", message: expect.stringContaining("application/pdf") },
    ]);
    expect(issuesOf("document", media(Buffer.from([0x00, 0x01]), "text/plain", { filename: "a.txt" }))).toEqual([
      { path: "media.data", message: expect.stringContaining("UTF-8") },
    ]);
    expect(issuesOf("audio", media(samples.jpeg, "audio/ogg"))).toHaveLength(1);
    expect(issuesOf("video", media(samples.ogg, "video/3gpp"))).toHaveLength(1);
  });

  it("refuses data that is not base64 or is empty", () => {
    expect(issuesOf("image", { mime_type: "image/png", data: "iVBORw0KGgo=%%%" })).toEqual([
      { path: "media.data", message: "media.data must be standard base64." },
    ]);
    expect(issuesOf("image", { mime_type: "image/png", data: "iVBORw0KGgo-_" })).toHaveLength(1);
    expect(issuesOf("image", { mime_type: "image/png", data: "" })).toEqual([
      { path: "media.data", message: "media.data must not be empty." },
    ]);
  });

  const limitCases: [MediaType, Buffer, string, number][] = [
    ["image", samples.jpeg, "image/jpeg", 5 * MiB],
    ["audio", samples.ogg, "audio/ogg", 16 * MiB],
    ["video", samples.mp4, "video/mp4", 16 * MiB],
    ["document", samples.pdf, "application/pdf", 100 * MiB],
  ];

  it.each(limitCases)("accepts %s media of exactly the limit and refuses one byte more", (type, signature, mimeType, limit) => {
    const exact = validateMedia({ type, media: media(paddedTo(signature, limit), mimeType, { filename: "f.pdf" }) });
    expect(exact.ok).toBe(true);
    if (exact.ok) expect(exact.bytes).toHaveLength(limit);

    const over = issuesOf(type, media(paddedTo(signature, limit + 1), mimeType, { filename: "f.pdf" }));
    expect(over).toEqual([
      {
        path: "media.data",
        message: `${{ image: "Images", audio: "Audio files", video: "Videos", document: "Documents" }[type]} can be at most ${limit / MiB} MB (${limit.toLocaleString("en-US")} bytes); this file is ${limit / MiB} MB (${(limit + 1).toLocaleString("en-US")} bytes).`,
        tooLarge: true,
      },
    ]);
  });

  it("requires a filename for documents only", () => {
    expect(issuesOf("document", media(samples.pdf, "application/pdf"))).toEqual([
      { path: "media.filename", message: "media.filename is required for document messages." },
    ]);
    expect(issuesOf("image", media(samples.png, "image/png"))).toEqual([]);
  });

  const badFilenames: [string, string][] = [
    ["", "empty"],
    ["   ", "only spaces"],
    ["a".repeat(256), "256 characters"],
    ["../etc/passwd", "a forward slash"],
    ["folder\\invoice.pdf", "a backslash"],
    ["invoice\u0000.pdf", "a NUL byte"],
    ["invoice\n.pdf", "a line break"],
    ["invoice\u007f.pdf", "DEL"],
    ["..", "a parent reference"],
  ];

  it.each(badFilenames)("refuses the filename %j (%s)", (filename) => {
    const issues = issuesOf("document", media(samples.pdf, "application/pdf", { filename }));
    expect(issues).toHaveLength(1);
    expect(issues[0].path).toBe("media.filename");
  });

  it("accepts filenames up to 255 characters, counting an emoji as one", () => {
    expect(issuesOf("document", media(samples.pdf, "application/pdf", { filename: "a".repeat(255) }))).toEqual([]);
    expect(issuesOf("document", media(samples.pdf, "application/pdf", { filename: `${"a".repeat(250)}🌱.pdf` }))).toEqual([]);
    expect(issuesOf("document", media(samples.pdf, "application/pdf", { filename: "Orçamento Março.pdf" }))).toEqual([]);
  });

  it("accepts captions up to 1024 characters and refuses longer ones", () => {
    expect(issuesOf("image", media(samples.png, "image/png", { caption: "c".repeat(1024) }))).toEqual([]);
    expect(issuesOf("image", media(samples.png, "image/png", { caption: "🌱".repeat(1024) }))).toEqual([]);
    expect(issuesOf("video", media(samples.mp4, "video/mp4", { caption: "c".repeat(1025) }))).toEqual([
      { path: "media.caption", message: "media.caption must be at most 1,024 characters." },
    ]);
  });

  it("refuses a caption on audio", () => {
    expect(issuesOf("audio", media(samples.ogg, "audio/ogg", { caption: "listen" }))).toEqual([
      { path: "media.caption", message: "media.caption is not allowed for audio messages." },
    ]);
    expect(issuesOf("audio", media(samples.ogg, "audio/ogg", { caption: null }))).toEqual([]);
  });

  it("reports every problem at once, each naming its field", () => {
    const issues = issuesOf("audio", { mime_type: "audio/wav", data: "***", filename: "a/b", caption: "x" });
    expect(issues.map((issue) => issue.path)).toEqual([
      "media.mime_type",
      "media.data",
      "media.filename",
      "media.caption",
    ]);
  });

  it("accepts every type in mediaTypes with a matching sample", () => {
    const perType: Record<MediaType, MediaInput> = {
      image: media(samples.png, "image/png"),
      document: media(samples.pdf, "application/pdf", { filename: "a.pdf" }),
      audio: media(samples.amr, "audio/amr"),
      video: media(samples.threeGpp, "video/3gpp"),
    };
    for (const type of mediaTypes) expect(validateMedia({ type, media: perType[type] }).ok).toBe(true);
  });
});
