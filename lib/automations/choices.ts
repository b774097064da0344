import "server-only";
import type { ServiceContext } from "@/lib/auth/context";
import { listCannedReplies } from "@/lib/canned-replies/canned-replies";
import { listLabels } from "@/lib/labels/labels";
import { collectPages } from "@/lib/platform/pagination";
import { listSlaPolicies } from "@/lib/sla/policies";
import { listTeams } from "@/lib/teams/teams";
import { listTemplates } from "@/lib/templates/templates";
import { listUsers } from "@/lib/users/users";

/** What a rule's or macro's actions and conditions may name, for the builders' pickers. */
export async function loadAutomationChoices({ ctx }: { ctx: ServiceContext<"user"> }) {
  const [users, labels, cannedReplies, templates, teams, slaPolicies] = await Promise.all([
    collectPages((cursor) => listUsers({ ctx, limit: 100, cursor })),
    collectPages((cursor) => listLabels({ ctx, limit: 100, cursor })),
    collectPages((cursor) => listCannedReplies({ ctx, limit: 100, cursor })),
    collectPages((cursor) => listTemplates({ ctx, limit: 100, cursor })),
    collectPages((cursor) => listTeams({ ctx, limit: 100, cursor })),
    collectPages((cursor) => listSlaPolicies({ ctx, limit: 100, cursor })),
  ]);
  return {
    users: users.map((u) => ({ id: u.id, name: u.name })),
    labels: labels.map((l) => ({ id: l.id, name: l.name })),
    cannedReplies: cannedReplies.map((c) => ({ id: c.id, shortcut: c.shortcut })),
    templates: templates.map((t) => ({ name: t.name, language: t.language })),
    teams: teams.map((t) => ({ id: t.id, name: t.name })),
    slaPolicies: slaPolicies.map((p) => ({ id: p.id, name: p.name })),
  };
}
