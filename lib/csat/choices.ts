// The survey's choices, shared by the server and the inbox (apart from the schemas, so that the
// inbox's bundle does not carry the validation library).
import { csatTexts } from "./texts";

/** The list's scores; the row id is how the customer's choice is recognised. */
export const csatScores = [1, 2, 3, 4, 5] as const;

/** The list as an English-speaking customer sees it. */
export const csatChoices = csatScores.map((score) => ({ score, title: csatTexts.en.choices[score] }));

export const csatChoiceId = (score: number) => `csat_${score}`;
