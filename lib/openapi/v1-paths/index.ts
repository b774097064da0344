import type { V1Domain } from "../v1-common";
import { accountDomain } from "./account";
import { assistantDomain } from "./assistant";
import { authDomain } from "./auth";
import { campaignsDomain } from "./campaigns";
import { automationsDomain } from "./automations";
import { configDomain } from "./config";
import { conversationsDomain } from "./conversations";
import { csatDomain } from "./csat";
import { eventsDomain } from "./events";
import { healthDomain } from "./health";
import { identityDomain } from "./identity";
import { messagesDomain } from "./messages";
import { openapiDomain } from "./openapi";
import { pushDomain } from "./push";
import { reportsDomain } from "./reports";
import { teamDomain } from "./team";
import { contactsDomain, labelsDomain, searchDomain } from "./team-inbox";
import { teamWorkflowDomain } from "./team-workflow";
import { templatesDomain } from "./templates";
import { usersDomain } from "./users";
import { webhooksDomain } from "./webhooks";

/** Every domain of /v1, in the order of the reference's sidebar. */
export const v1Domains: V1Domain[] = [
  authDomain,
  accountDomain,
  conversationsDomain,
  teamDomain,
  pushDomain,
  teamWorkflowDomain,
  labelsDomain,
  automationsDomain,
  searchDomain,
  contactsDomain,
  campaignsDomain,
  messagesDomain,
  assistantDomain,
  usersDomain,
  reportsDomain,
  configDomain,
  templatesDomain,
  csatDomain,
  webhooksDomain,
  identityDomain,
  eventsDomain,
  healthDomain,
  openapiDomain,
];
