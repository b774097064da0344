// The survey's choices, shared by the server and the inbox (apart from the schemas, so that the
// inbox's bundle does not carry the validation library).

/** The list's choices; the row id is how the customer's choice is recognised. */
export const csatChoices = [
  { score: 1, title: "1 - Very poor" },
  { score: 2, title: "2 - Poor" },
  { score: 3, title: "3 - Okay" },
  { score: 4, title: "4 - Good" },
  { score: 5, title: "5 - Excellent" },
] as const;

export const csatChoiceId = (score: number) => `csat_${score}`;
