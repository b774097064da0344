import { useTranslations } from "next-intl";
import { type AppFormat } from "@/components/i18n/app-format";
import { useAppFormat } from "@/components/i18n/use-app-format";
import type { ActivityItem as Activity } from "./team-types";

type Named = { id?: string; name?: string | null } | null | undefined;

type T = ReturnType<typeof useTranslations>;

/** Why the answer assistant left a conversation to a person: keys of `inbox.activity`. */
const handoffReasons: Record<string, string> = {
  asked_for_person: "handoff.askedForPerson",
  below_threshold: "handoff.belowThreshold",
  no_answer: "handoff.noAnswer",
  ungrounded: "handoff.ungrounded",
  model_error: "handoff.modelError",
};

/** One line of the activity trail in words: "Ana assigned this to Bruno". */
function describeActivity(activity: Activity, t: T, format: AppFormat, meId?: string): string {
  const rule = (activity.data.automation as { name?: string } | undefined)?.name;
  const who =
    activity.actor.type === "automation"
      ? rule
        ? t("who.automationRule", { rule })
        : t("who.automaticReply")
      : activity.actor.type === "contact"
        ? activity.actor.name || t("who.customer")
        : activity.actor.id && activity.actor.id === meId
          ? t("who.you")
          : activity.actor.name || t("who.someone");
  const person = (named: Named) => (named?.id && named.id === meId ? t("person.you") : named?.name || t("person.former"));
  const data = activity.data;
  switch (activity.type) {
    case "created":
      return activity.actor.type === "contact" ? t("created.contact", { who }) : t("created.user", { who });
    case "assigned": {
      const assignee = data.assignee as Named;
      const self = assignee?.id && assignee.id === activity.actor.id;
      if (data.auto) return t("assigned.auto", { who });
      if (data.policy) return t("assigned.policy", { person: person(assignee) });
      return self ? t("assigned.self", { who }) : t("assigned.other", { who, person: person(assignee) });
    }
    case "unassigned": {
      const previous = data.previous_assignee as Named;
      if (data.reason === "user_deleted") return t("unassigned.deleted", { who, person: person(previous) });
      return previous ? t("unassigned.person", { who, person: person(previous) }) : t("unassigned.this", { who });
    }
    case "closed":
      return t("closed", { who });
    case "reopened":
      return activity.actor.type === "contact" ? t("reopened.contact", { who }) : t("reopened.user", { who });
    case "snoozed":
      return typeof data.until === "string" ? t("snoozed.until", { who, until: format.dateTime(data.until) }) : t("snoozed.plain", { who });
    case "labeled":
    case "unlabeled": {
      const label = (data.label as { name?: string } | undefined)?.name;
      if (activity.type === "labeled") return label ? t("labeled.named", { who, label }) : t("labeled.plain", { who });
      return label ? t("unlabeled.named", { who, label }) : t("unlabeled.plain", { who });
    }
    case "auto_reply":
      if (data.kind === "assistant") return t("autoReply.assistant");
      return data.kind === "hours_question" ? t("autoReply.hours") : t("autoReply.outsideHours");
    case "automation":
      return t("automation", { who });
    case "macro":
      return t("macro", { who, macro: (data.macro as { name?: string } | undefined)?.name ?? "" });
    case "handed_off":
      return t("handedOff", { reason: t(handoffReasons[String(data.reason)] ?? "handoff.unsure") });
    case "priority_changed":
      return data.priority ? t("priority.set", { who, priority: String(data.priority) }) : t("priority.removed", { who });
    case "team_changed": {
      const team = (data.team as { name?: string } | null | undefined)?.name;
      return team ? t("team.moved", { who, team }) : t("team.removed", { who });
    }
    case "sla_applied": {
      const policy = (data.sla_policy as { name?: string } | null | undefined)?.name;
      return policy ? t("sla.applied", { who, policy }) : t("sla.removed", { who });
    }
    default:
      return t("changed", { who });
  }
}

/** An activity entry, inline in the thread: small, centred, with its time. */
export function ActivityLine({ activity, meId }: { activity: Activity; meId?: string }) {
  const t = useTranslations("inbox.activity");
  const format = useAppFormat();
  return (
    <div className="my-1 flex justify-center" data-testid="activity-item" data-activity-type={activity.type}>
      <p className="max-w-[90%] rounded-full bg-slate-100 px-3 py-0.5 text-center text-xs text-slate-600">
        {describeActivity(activity, t, format, meId)} · <time dateTime={activity.created_at}>{format.clock(activity.created_at)}</time>
      </p>
    </div>
  );
}
