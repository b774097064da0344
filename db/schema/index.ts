// The database schema, one file per domain, in the order the tables were added. `@/db/schema`
// is this file: everything is re-exported, so a query imports its tables from one place.
// Shared column helpers (timestamps, bytea) are in columns.ts. drizzle-kit reads this file.
export * from "./accounts";
export * from "./contacts";
export * from "./conversations";
export * from "./messages";
export * from "./events";
export * from "./webhooks";
export * from "./profile";
export * from "./network";
export * from "./plants";
export * from "./api";
export * from "./jobs";
export * from "./knowledge";
export * from "./identity";
export * from "./team-inbox";
export * from "./templates";
export * from "./reports";
export * from "./answers";
export * from "./pricing";
export * from "./push";
export * from "./campaigns";
export * from "./workflow";
