import { monotonicFactory } from "ulid";

const nextUlid = monotonicFactory();

export const idPrefixes = {
  account: "acc",
  user: "usr",
  token: "tok",
  contact: "ctc",
  conversation: "conv",
  message: "msg",
  media: "med",
  webhook: "wh",
  event: "evt",
  reportingEvent: "rpe",
  delivery: "dlv",
  attempt: "att",
  document: "doc",
  passage: "psg",
  request: "req",
  app: "app",
  grant: "grt",
  invitation: "inv",
  passwordReset: "pwr",
  recoveryCode: "rcv",
  audit: "aud",
  note: "note",
  notification: "ntf",
  activity: "act",
  cannedReply: "cr",
  label: "lbl",
  template: "tpl",
  pushSubscription: "psub",
  campaign: "cmp",
  automation: "auto",
  macro: "mac",
  team: "team",
  assignmentPolicy: "asp",
  slaPolicy: "sla",
  slaOutcome: "slo",
} as const;

export type IdKind = keyof typeof idPrefixes;

/** A type-prefixed, time-sortable identifier such as `conv_01J...`. */
export function newId(kind: IdKind, at: Date = new Date()): string {
  return `${idPrefixes[kind]}_${nextUlid(at.getTime()).toLowerCase()}`;
}
