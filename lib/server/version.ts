import packageJson from "@/package.json";

/** The release this server runs (package.json's version; the API reference's `info.version`). */
export const APP_VERSION = packageJson.version;
