import type { LabelRef } from "@/db/schema";
import { ATTRIBUTE_FIELD_PREFIX, type AutomationConditionInput, type ConditionField } from "./schemas";
import { patternMatches } from "./safe-regex";

/** A field's value: text, a list of labels, or nothing. */
export type FactValue = string | null | LabelRef[];

/** Reads a field's value for one conversation (loading only what the conditions ask for). */
export type FactReader = (field: ConditionField) => FactValue | Promise<FactValue>;

/** What each field reads, from the facts of one conversation. A new field is one entry here and one name in schemas.ts. */
export type ConversationFacts = {
  message: { text: string | null; language: string | null } | null;
  contact: { name: string | null; phone: string | null; attributes: Record<string, string> };
  conversation: { status: string; assigneeId: string | null; labels: LabelRef[]; priority: string | null; teamId: string | null };
};

export const fieldReaders: Record<Exclude<ConditionField, `contact.attributes.${string}`>, (facts: ConversationFacts) => FactValue> = {
  "message.text": (f) => f.message?.text ?? null,
  "message.language": (f) => f.message?.language ?? null,
  "contact.name": (f) => f.contact.name,
  "contact.phone": (f) => f.contact.phone,
  "contact.labels": () => null, // read by the engine (it spans the contact's conversations)
  "conversation.status": (f) => f.conversation.status,
  "conversation.labels": (f) => f.conversation.labels,
  "conversation.assignee_id": (f) => f.conversation.assigneeId,
  "conversation.priority": (f) => f.conversation.priority,
  "conversation.team_id": (f) => f.conversation.teamId,
  business_hours: () => null, // read by the engine (the business profile's hours)
};

export function attributeKey(field: string): string | null {
  return field.startsWith(ATTRIBUTE_FIELD_PREFIX) ? field.slice(ATTRIBUTE_FIELD_PREFIX.length) : null;
}

const fold = (value: string) => value.normalize("NFC").toLocaleLowerCase();

function testText(operator: AutomationConditionInput["operator"], actual: string | null, expected: string): boolean {
  const present = actual !== null && actual !== "";
  switch (operator) {
    case "is_present":
      return present;
    case "is_absent":
      return !present;
    case "equals":
      return present && fold(actual) === fold(expected);
    case "not_equals":
      return !present || fold(actual) !== fold(expected);
    case "contains":
      return present && fold(actual).includes(fold(expected));
    case "not_contains":
      return !present || !fold(actual).includes(fold(expected));
    case "starts_with":
      return present && fold(actual).startsWith(fold(expected));
    case "matches":
      return present && patternMatches(expected, actual);
  }
}

/**
 * A list of labels matches by label: `equals`/`contains` hold when one label has the value as
 * its id or name, `not_*` when none has, `starts_with`/`matches` test the names, `is_present`
 * when there is at least one label.
 */
function testLabels(operator: AutomationConditionInput["operator"], actual: LabelRef[], expected: string): boolean {
  const named = (l: LabelRef) => l.id === expected || fold(l.name) === fold(expected);
  switch (operator) {
    case "is_present":
      return actual.length > 0;
    case "is_absent":
      return actual.length === 0;
    case "equals":
    case "contains":
      return actual.some(named);
    case "not_equals":
    case "not_contains":
      return !actual.some(named);
    case "starts_with":
      return actual.some((l) => fold(l.name).startsWith(fold(expected)));
    case "matches":
      return actual.some((l) => patternMatches(expected, l.name));
  }
}

function testCondition(condition: AutomationConditionInput, actual: FactValue): boolean {
  const expected = condition.value ?? "";
  return Array.isArray(actual) ? testLabels(condition.operator, actual, expected) : testText(condition.operator, actual, expected);
}

// Fields that need a query of their own (the contact's other conversations, the business
// profile): tested after the fields already at hand, so a rule that fails on the text costs nothing.
const queriedFields = new Set(["contact.labels", "business_hours"]);
const cost = (condition: AutomationConditionInput) => (queriedFields.has(condition.field) ? 2 : condition.operator === "matches" ? 1 : 0);

/** Whether every condition holds (no conditions: always). Cheapest first; stops at the first that fails. */
export async function allConditionsHold(conditions: AutomationConditionInput[], read: FactReader): Promise<boolean> {
  for (const condition of [...conditions].sort((a, b) => cost(a) - cost(b))) {
    if (!testCondition(condition, await read(condition.field as ConditionField))) return false;
  }
  return true;
}
