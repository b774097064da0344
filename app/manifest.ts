import type { MetadataRoute } from "next";

// The installed app opens on the inbox; its colours are the brand green on the page's white.
export default function manifest(): MetadataRoute.Manifest {
  return {
    id: "/inbox",
    name: "Chorus — shared inbox",
    short_name: "Chorus",
    description: "One business number, answered together.",
    start_url: "/inbox",
    scope: "/",
    display: "standalone",
    orientation: "any",
    theme_color: "#178059",
    background_color: "#ffffff",
    icons: [
      { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
      { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
      { src: "/icons/maskable-192.png", sizes: "192x192", type: "image/png", purpose: "maskable" },
      { src: "/icons/maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
    ],
  };
}
