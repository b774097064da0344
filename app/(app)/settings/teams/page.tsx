import { getTranslations } from "next-intl/server";
import { AssignmentForm } from "@/components/settings/assignment-form";
import { AssignmentOverrides } from "@/components/settings/assignment-overrides";
import { SlaPoliciesManager } from "@/components/settings/sla-policies-manager";
import { TeamsManager } from "@/components/settings/teams-manager";
import { PageHeader } from "@/components/ui/page-header";
import { collectPages } from "@/lib/platform/pagination";
import { requireSession } from "@/lib/server/session";
import { listSlaPolicies } from "@/lib/sla/policies";
import { getAssignmentConfig } from "@/lib/teams/assignment";
import { listTeams } from "@/lib/teams/teams";
import { listUsers } from "@/lib/users/users";

export async function generateMetadata() {
  return { title: (await getTranslations("settingsTeams"))("title") };
}

export default async function TeamsPage() {
  const session = await requireSession();
  const [teams, people, assignment, slaPolicies, t] = await Promise.all([
    collectPages((cursor) => listTeams({ ctx: session, limit: 100, cursor })),
    collectPages((cursor) => listUsers({ ctx: session, limit: 100, cursor })),
    getAssignmentConfig({ ctx: session }),
    collectPages((cursor) => listSlaPolicies({ ctx: session, limit: 100, cursor })),
    getTranslations("settingsTeams"),
  ]);
  const canEdit = session.user.role === "admin";
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      <div className="flex flex-col gap-8">
        <section aria-labelledby="teams-heading" className="flex flex-col gap-3">
          <h2 id="teams-heading" className="text-base font-semibold">
            {t("teamsHeading")}
          </h2>
          <TeamsManager teams={teams} people={people.map((p) => ({ id: p.id, name: p.name, availability: p.availability }))} canEdit={canEdit} />
        </section>
        <section aria-labelledby="assignment-heading" className="flex flex-col gap-3">
          <h2 id="assignment-heading" className="text-base font-semibold">
            {t("assignmentHeading")}
          </h2>
          <AssignmentForm initial={assignment} canEdit={canEdit} />
          <AssignmentOverrides teams={teams.map((t) => ({ id: t.id, name: t.name }))} people={people.map((p) => ({ id: p.id, name: p.name }))} canEdit={canEdit} />
        </section>
        <section aria-labelledby="sla-heading" className="flex flex-col gap-3">
          <h2 id="sla-heading" className="text-base font-semibold">
            {t("slaHeading")}
          </h2>
          <SlaPoliciesManager policies={slaPolicies} canEdit={canEdit} />
        </section>
      </div>
    </>
  );
}
