import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

/**
 * The layers, lowest first (README "Architecture"): a file may import its own layer and the
 * layers below it, never one above. Tests, scripts and benchmarks may import anything.
 */
const domains = [
  "accounts",
  "activity",
  "assistant",
  "auto-replies",
  "campaigns",
  "automations",
  "canned-replies",
  "contacts",
  "conversations",
  "csat",
  "inbox",
  "labels",
  "messages",
  "notes",
  "notifications",
  "oauth",
  "plants",
  "polish",
  "pricing",
  "profile",
  "push",
  "reports",
  "search",
  "sla",
  "teams",
  "templates",
  "users",
  "webhooks",
].map((name) => `./lib/${name}`);
const layers = [
  { name: "platform", dirs: ["./lib/platform"] },
  { name: "db", dirs: ["./db"] },
  { name: "core", dirs: ["./lib/audit", "./lib/auth", "./lib/events", "./lib/jobs", "./lib/mail"] },
  { name: "network adapters", dirs: ["./lib/network"] },
  { name: "domains", dirs: domains },
  { name: "inbound", dirs: ["./lib/inbound"] },
  { name: "top", dirs: ["./lib/api", "./lib/server", "./lib/openapi", "./lib/client", "./inngest"] },
  { name: "app", dirs: ["./app", "./components"] },
];
const order = layers.map((layer) => layer.name).join(" < ");
const layerZones = layers.slice(0, -1).map((layer, i) => ({
  target: layer.dirs,
  from: layers.slice(i + 1).flatMap((above) => above.dirs),
  message: `The ${layer.name} layer must not import a higher layer (${order}). Move the shared piece down, or call it through the layer above.`,
}));

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [".next/**", "node_modules/**", ".data/**", "test-results/**", "playwright-report/**", "next-env.d.ts", "db/migrations/**"],
  },
  {
    files: ["tests/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    files: ["lib/**/*.{ts,tsx}", "db/**/*.ts", "app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}", "inngest/**/*.ts"],
    rules: { "import/no-restricted-paths": ["error", { zones: layerZones }] },
  },
];

export default config;
