import type { V1Domain } from "../v1-common";
import { accountDomain } from "./account";
import { authDomain } from "./auth";
import { configDomain } from "./config";
import { conversationsDomain } from "./conversations";
import { csatDomain } from "./csat";
import { eventsDomain } from "./events";
import { healthDomain } from "./health";
import { messagesDomain } from "./messages";
import { openapiDomain } from "./openapi";
import { reportsDomain } from "./reports";
import { usersDomain } from "./users";
import { webhooksDomain } from "./webhooks";

/** Every domain of /v1, in the order of the reference's sidebar. */
export const v1Domains: V1Domain[] = [
  authDomain,
  accountDomain,
  conversationsDomain,
  messagesDomain,
  usersDomain,
  reportsDomain,
  configDomain,
  csatDomain,
  webhooksDomain,
  eventsDomain,
  healthDomain,
  openapiDomain,
];
