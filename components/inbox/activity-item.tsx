import { formatClockTime } from "@/components/ui/format";
import type { ActivityItem as Activity } from "./team-types";

type Named = { id?: string; name?: string | null } | null | undefined;

/** Why the answer assistant left a conversation to a person. */
const handoffReasons: Record<string, string> = {
  asked_for_person: "the customer asked for one",
  below_threshold: "nothing in your documents matched the question well enough",
  no_answer: "the documents do not answer the question",
  ungrounded: "the drafted answer stated something your documents do not say",
  model_error: "the language model did not answer",
};

/** One line of the activity trail in words: "Ana assigned this to Bruno". */
function describeActivity(activity: Activity, meId?: string): string {
  const rule = (activity.data.automation as { name?: string } | undefined)?.name;
  const who =
    activity.actor.type === "automation"
      ? rule
        ? `Automation “${rule}”`
        : "Automatic reply"
      : activity.actor.type === "contact"
        ? activity.actor.name || "The customer"
        : activity.actor.id && activity.actor.id === meId
          ? "You"
          : activity.actor.name || "Someone";
  const person = (named: Named) => (named?.id && named.id === meId ? "you" : named?.name || "a former teammate");
  const data = activity.data;
  switch (activity.type) {
    case "created":
      return activity.actor.type === "contact" ? `${who} started the conversation` : `${who} started this conversation`;
    case "assigned": {
      const assignee = data.assignee as Named;
      const self = assignee?.id && assignee.id === activity.actor.id;
      if (data.auto) return `${who} replied first and took this conversation`;
      if (data.policy) return `Assigned to ${person(assignee)} by the assignment policy`;
      return self ? `${who} took this conversation` : `${who} assigned this to ${person(assignee)}`;
    }
    case "unassigned": {
      const previous = data.previous_assignee as Named;
      if (data.reason === "user_deleted") return `${who} removed ${person(previous)}, so this is unassigned`;
      return previous ? `${who} unassigned ${person(previous)}` : `${who} unassigned this`;
    }
    case "closed":
      return `${who} closed this conversation`;
    case "reopened":
      return activity.actor.type === "contact" ? `${who} wrote again and reopened this` : `${who} reopened this conversation`;
    case "snoozed":
      return typeof data.until === "string" ? `${who} snoozed this until ${new Date(data.until).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })}` : `${who} snoozed this`;
    case "labeled":
    case "unlabeled": {
      const label = (data.label as { name?: string } | undefined)?.name;
      return `${who} ${activity.type === "labeled" ? "added" : "removed"} the label ${label ? `“${label}”` : ""}`.trim();
    }
    case "auto_reply":
      if (data.kind === "assistant") return "The answer assistant replied from your documents";
      return data.kind === "hours_question" ? "Automatic reply sent the opening hours" : "Automatic reply sent the outside-hours message";
    case "automation":
      return `${who} ran`;
    case "macro":
      return `${who} ran the macro “${(data.macro as { name?: string } | undefined)?.name ?? ""}”`;
    case "handed_off":
      return `Handed to a person: ${handoffReasons[String(data.reason)] ?? "the assistant was unsure"}`;
    case "priority_changed":
      return data.priority ? `${who} set the priority to ${String(data.priority)}` : `${who} removed the priority`;
    case "team_changed": {
      const team = (data.team as { name?: string } | null | undefined)?.name;
      return team ? `${who} moved this to the team “${team}”` : `${who} took this out of its team`;
    }
    case "sla_applied": {
      const policy = (data.sla_policy as { name?: string } | null | undefined)?.name;
      return policy ? `${who} applied the SLA policy “${policy}”` : `${who} removed the SLA policy`;
    }
    default:
      return `${who} changed this conversation`;
  }
}

/** An activity entry, inline in the thread: small, centred, with its time. */
export function ActivityLine({ activity, meId }: { activity: Activity; meId?: string }) {
  return (
    <div className="my-1 flex justify-center" data-testid="activity-item" data-activity-type={activity.type}>
      <p className="max-w-[90%] rounded-full bg-slate-100 px-3 py-0.5 text-center text-xs text-slate-600">
        {describeActivity(activity, meId)} · <time dateTime={activity.created_at}>{formatClockTime(activity.created_at)}</time>
      </p>
    </div>
  );
}
