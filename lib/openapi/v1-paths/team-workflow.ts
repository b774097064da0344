import { conversationOutput, updateConversationInput } from "@/lib/conversations/schemas";
import { applySlaInput, createSlaPolicyInput, slaPolicyOutput, updateSlaPolicyInput } from "@/lib/sla/schemas";
import { assignmentConfigInput, assignmentConfigOutput, assignmentConfigQuery } from "@/lib/teams/assignment-schemas";
import { setAvailabilityInput } from "@/lib/teams/availability-schemas";
import { createTeamInput, teamOutput, updateTeamInput } from "@/lib/teams/schemas";
import { userOutput } from "@/lib/auth/user-identity";
import { updateMeInput } from "@/lib/users/schemas";
import { reportRangeFields } from "@/lib/reports/schemas";
import { slaReportOutput } from "@/lib/sla/report-schemas";
import { deleted, operationsFor, page, paginationQuery, pathIds, type V1Domain } from "../v1-common";

const tag = {
  name: "Team workflow",
  description: "Availability, teams, priorities, automatic assignment with capacity, and SLA policies with their clocks.",
};
const op = operationsFor(tag.name);
const conversationOp = operationsFor("Conversations");

const teamId = pathIds({ id: "team" });
const slaPolicyId = pathIds({ id: "slaPolicy" });
const conversationId = pathIds({ id: "conversation" });

export const teamWorkflowDomain: V1Domain = {
  tag,
  paths: {
    "/v1/users/me": {
      get: op({
        operationId: "getMe",
        summary: "Get the caller",
        description: "The user the token belongs to, with their availability.",
        access: { scope: "users:read" },
        success: { status: "200", description: "The caller.", schema: userOutput },
      }),
      patch: op({
        operationId: "updateMe",
        summary: "Change your preferences",
        description: "Your interface language (`locale`: `en`, `es` or `pt-BR`), applied from the next page load. Any role may change their own. Emits `user.updated`.",
        access: { auth: "session" },
        body: updateMeInput,
        success: { status: "200", description: "You, with the change.", schema: userOutput },
      }),
    },
    "/v1/users/me/availability": {
      put: op({
        operationId: "setAvailability",
        summary: "Set your availability",
        description:
          "`online`, `busy` or `offline`; counts as activity. Only `online` people (not `away`: no activity for the account's away delay) receive conversations automatically; going online hands out waiting conversations at once, oldest first. Emits `user.updated`. Your own setting, said by you: any session token (browser sign-in or `POST /v1/auth/login`); an API token gets a 403 whatever its scopes.",
        access: { auth: "session" },
        body: setAvailabilityInput,
        success: { status: "200", description: "You, with your availability.", schema: userOutput },
      }),
    },
    "/v1/teams": {
      get: op({
        operationId: "listTeams",
        summary: "List teams",
        description: "Oldest first.",
        access: { scope: "teams:read" },
        query: paginationQuery,
        success: { status: "200", description: "A page of teams.", schema: page(teamOutput) },
      }),
      post: op({
        operationId: "createTeam",
        summary: "Create a team",
        description: "A member who is not a current user of the account is a 400 naming them and nothing is stored; a name already used (ignoring case) is a 409. Audited.",
        access: { scope: "teams:write" },
        body: createTeamInput,
        success: { status: "201", description: "The new team.", schema: teamOutput },
        errors: [409],
      }),
    },
    "/v1/teams/{id}": {
      get: op({
        operationId: "getTeam",
        summary: "Get a team",
        access: { scope: "teams:read" },
        path: teamId,
        success: { status: "200", description: "The team.", schema: teamOutput },
      }),
      patch: op({
        operationId: "updateTeam",
        summary: "Change a team",
        description: "`members` replaces the whole set. Unknown members are a 400 and nothing changes; a name already used is a 409. Audited.",
        access: { scope: "teams:write" },
        path: teamId,
        body: updateTeamInput,
        success: { status: "200", description: "The team.", schema: teamOutput },
        errors: [409],
      }),
      delete: op({
        operationId: "deleteTeam",
        summary: "Delete a team",
        description: "Its conversations keep going without a team; its own assignment policy goes with it. Audited.",
        access: { scope: "teams:write" },
        path: teamId,
        success: deleted,
      }),
    },
    "/v1/config/assignment": {
      get: op({
        operationId: "getAssignmentConfig",
        summary: "Get the assignment policy",
        description: "The account's policy, or with `team_id` the team's (its own, or the account's it inherits: `inherited: true`). An unknown team is a 400.",
        access: { scope: "config:read" },
        query: assignmentConfigQuery,
        success: { status: "200", description: "The policy.", schema: assignmentConfigOutput },
      }),
      put: op({
        operationId: "updateAssignmentConfig",
        summary: "Replace the assignment policy",
        description:
          "The account's policy, or with `team_id` a team's. A team's conversations go to its members by the team's policy (or the account's mode when it has none); other conversations to everyone by the account's. Only online people under their capacity receive conversations; when nobody can, a conversation waits unassigned and is handed out oldest first as places free (someone goes online, a conversation closes, a capacity is raised — including by this call). Each automatic assignment emits `conversation.assigned` and is in the activity trail with actor `automation`. Unknown teams or people are a 400 and nothing changes. Audited.",
        access: { scope: "config:write" },
        body: assignmentConfigInput,
        success: { status: "200", description: "The saved policy.", schema: assignmentConfigOutput },
      }),
    },
    "/v1/sla-policies": {
      get: op({
        operationId: "listSlaPolicies",
        summary: "List SLA policies",
        description: "Oldest first.",
        access: { scope: "config:read" },
        query: paginationQuery,
        success: { status: "200", description: "A page of SLA policies.", schema: page(slaPolicyOutput) },
      }),
      post: op({
        operationId: "createSlaPolicy",
        summary: "Create an SLA policy",
        description: "At least one target. `default: true` applies it to every new conversation (and takes that from the previous default). A name already used is a 409. Audited.",
        access: { scope: "config:write" },
        body: createSlaPolicyInput,
        success: { status: "201", description: "The new policy.", schema: slaPolicyOutput },
        errors: [409],
      }),
    },
    "/v1/sla-policies/{id}": {
      get: op({
        operationId: "getSlaPolicy",
        summary: "Get an SLA policy",
        access: { scope: "config:read" },
        path: slaPolicyId,
        success: { status: "200", description: "The policy.", schema: slaPolicyOutput },
      }),
      patch: op({
        operationId: "updateSlaPolicy",
        summary: "Change an SLA policy",
        description: "Changed targets apply to clocks started from now on. Removing every target is a 400. Audited.",
        access: { scope: "config:write" },
        path: slaPolicyId,
        body: updateSlaPolicyInput,
        success: { status: "200", description: "The policy.", schema: slaPolicyOutput },
        errors: [409],
      }),
      delete: op({
        operationId: "deleteSlaPolicy",
        summary: "Delete an SLA policy",
        description: "Conversations under it keep going without one; the outcomes already recorded stay in the reports. Audited.",
        access: { scope: "config:write" },
        path: slaPolicyId,
        success: deleted,
      }),
    },
    "/v1/reports/sla": {
      get: operationsFor("Reports")({
        operationId: "getSlaReport",
        summary: "SLA attainment",
        description:
          "Targets met and breached in [from, to) per SLA policy and per person (who answered in time, or the assignee at the breach or close; null: unassigned), counted from the outcomes recorded when they happened.",
        access: { scope: "reports:read" },
        query: reportRangeFields,
        success: { status: "200", description: "Attainment per policy and per person.", schema: slaReportOutput },
      }),
    },
    "/v1/conversations/{id}/sla": {
      put: conversationOp({
        operationId: "applyConversationSla",
        summary: "Apply an SLA policy to a conversation",
        description:
          "Applies `sla_policy_id` (null removes it) and starts its clock: the first answer's clock counts from when the customer started waiting. An unknown policy is a 400 and nothing changes. In the activity trail as `sla_applied`.",
        access: { scope: "conversations:write" },
        path: conversationId,
        body: applySlaInput,
        success: { status: "200", description: "The conversation with its SLA.", schema: conversationOutput },
      }),
    },
  },
};

/** `PATCH /v1/conversations/{id}`, listed with the conversation's other operations. */
export const updateConversationOperation = conversationOp({
  operationId: "updateConversation",
  summary: "Change a conversation's priority or team",
  description:
    "`priority` (`urgent`, `high`, `medium`, `low`, or null) and `team_id` (null: no team). An unknown team is a 400 and nothing changes, the priority sent with it included. A new team offers an unassigned open conversation to the team's assignment policy. Both are in the activity trail.",
  access: { scope: "conversations:write" },
  path: conversationId,
  body: updateConversationInput,
  success: { status: "200", description: "The conversation.", schema: conversationOutput },
});
