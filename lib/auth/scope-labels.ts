import type { Scope } from "./scopes";

/** What each scope lets its holder do, in the words the consent page and forms show. */
export const scopeLabels: Record<Scope, string> = {
  "conversations:read": "Read conversations",
  "conversations:write": "Assign, close and reopen conversations",
  "conversations:delete": "Delete conversations",
  "messages:read": "Read messages and their media",
  "messages:write": "Send messages for you",
  "messages:delete": "Delete messages",
  "users:read": "See the team's names, emails and roles",
  "users:write": "Add users and change their roles",
  "users:delete": "Remove users",
  "reports:read": "Read reports",
  "webhooks:read": "See webhooks and their delivery logs",
  "webhooks:write": "Create and change webhooks",
  "webhooks:delete": "Delete webhooks",
  "config:read": "Read the business profile and number settings",
  "config:write": "Change the business profile and number settings",
  "audit:read": "Read the audit log",
  "apps:read": "See registered apps",
  "apps:write": "Register and delete apps",
  "contacts:read": "Read contacts and export them",
  "contacts:write": "Edit and block contacts",
  "teams:read": "See teams and their members",
  "teams:write": "Create, change and delete teams",
};
