// Draws the app's icons (PNG and favicon.ico) from app/icon.svg with the installed Chromium.
// Run once when the icon changes: `node scripts/make-icons.mjs`; the files are committed.
import { readFileSync, writeFileSync } from "node:fs";
import { chromium } from "@playwright/test";

const svg = readFileSync("app/icon.svg", "utf8");
const glyph = svg.replace(/<rect[^>]*\/>/, ""); // the speech bubble without its rounded tile
const inner = glyph.replace(/^<svg[^>]*>/, "").replace(/<\/svg>$/, "");
const GREEN = "#178059";

// "any": the rounded tile as drawn; "maskable": a full-bleed square with the glyph inside the
// central 80 % safe zone, so any platform mask (circle, squircle) keeps all of it.
const any = (size) => svg.replace("<svg ", `<svg width="${size}" height="${size}" `);
const maskable = (size) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 32 32"><rect width="32" height="32" fill="${GREEN}"/><g transform="translate(6.4 6.4) scale(0.6)">${inner}</g></svg>`;
// Apple draws its own rounded corners and fills transparency with black: a full square.
const apple = (size) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 32 32"><rect width="32" height="32" fill="${GREEN}"/><g transform="translate(3.2 3.2) scale(0.8)">${inner}</g></svg>`;

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
const page = await browser.newPage();
async function png(markup, size) {
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(`<html><body style="margin:0;background:transparent">${markup}</body></html>`);
  return page.locator("svg").screenshot({ omitBackground: true });
}

const files = {
  "public/icons/icon-192.png": await png(any(192), 192),
  "public/icons/icon-512.png": await png(any(512), 512),
  "public/icons/maskable-192.png": await png(maskable(192), 192),
  "public/icons/maskable-512.png": await png(maskable(512), 512),
  "app/apple-icon.png": await png(apple(180), 180),
};
for (const [file, data] of Object.entries(files)) writeFileSync(file, data);

// favicon.ico: PNG images in an ICO container (16, 32 and 48 px), which every browser reads.
const sizes = [16, 32, 48];
const images = [];
for (const size of sizes) images.push(await png(any(size), size));
const header = Buffer.alloc(6 + 16 * images.length);
header.writeUInt16LE(0, 0);
header.writeUInt16LE(1, 2);
header.writeUInt16LE(images.length, 4);
let offset = header.length;
images.forEach((image, i) => {
  const entry = 6 + 16 * i;
  header.writeUInt8(sizes[i], entry);
  header.writeUInt8(sizes[i], entry + 1);
  header.writeUInt16LE(1, entry + 4);
  header.writeUInt16LE(32, entry + 6);
  header.writeUInt32LE(image.length, entry + 8);
  header.writeUInt32LE(offset, entry + 12);
  offset += image.length;
});
writeFileSync("app/favicon.ico", Buffer.concat([header, ...images]));
await browser.close();
console.log("icons written");
