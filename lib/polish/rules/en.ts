// English: chat spellings, language markers, filler phrases, question starts, courtesy phrases and
// the spelling fixes the rules engine applies.
import type { CourtesyPhrases } from "./courtesy";

export const englishAbbreviations: Record<string, string> = {
  u: "you",
  ur: "your",
  r: "are",
  pls: "please",
  plz: "please",
  plse: "please",
  thx: "thanks",
  thnx: "thanks",
  thanx: "thanks",
  tnx: "thanks",
  thks: "thanks",
  ty: "thank you",
  tysm: "thank you so much",
  btw: "by the way",
  idk: "I don't know",
  asap: "as soon as possible",
  msg: "message",
  msgs: "messages",
  b4: "before",
  tmrw: "tomorrow",
  tmr: "tomorrow",
  tmrow: "tomorrow",
  "2moro": "tomorrow",
  "2morrow": "tomorrow",
  "2day": "today",
  "2nite": "tonight",
  tonite: "tonight",
  abt: "about",
  lmk: "let me know",
  np: "no problem",
  yw: "you're welcome",
  fyi: "for your information",
  pkg: "package",
  acct: "account",
  bc: "because",
  bcoz: "because",
  bcuz: "because",
  cuz: "because",
  coz: "because",
  wud: "would",
  cud: "could",
  shud: "should",
  wk: "week",
  hr: "hour",
  hrs: "hours",
  ppl: "people",
  tho: "though",
  thru: "through",
  rn: "right now",
  ofc: "of course",
  nvm: "never mind",
  omw: "on my way",
  im: "I'm",
  ive: "I've",
  dont: "don't",
  cant: "can't",
  wont: "won't",
  didnt: "didn't",
  doesnt: "doesn't",
  isnt: "isn't",
  arent: "aren't",
  wasnt: "wasn't",
  werent: "weren't",
  havent: "haven't",
  hasnt: "hasn't",
  couldnt: "couldn't",
  wouldnt: "wouldn't",
  shouldnt: "shouldn't",
  youre: "you're",
  thats: "that's",
  whats: "what's",
  theres: "there's",
  theyre: "they're",
};

export const englishMarkers = new Set(
  "the you u your ur yours is are r to and of for we i it this that please pls plz plse thanks thx thnx thanx tnx thks thank ty tysm order will can have be my with on in hi hello was our not do just at if an would could should wud cud shud about abt lmk let know np problem yw welcome fyi information pkg package acct account bc bcoz bcuz cuz coz because wk week hr hrs hour hours ppl people im i'm ive i've dont don't cant can't wont won't didnt doesnt isnt arent wasnt werent havent hasnt couldnt wouldnt shouldnt youre you're thats that's whats what's theres there's theyre tho though thru through rn right now ofc course nvm never mind omw way btw by idk asap soon possible msg msgs message messages b4 before tmrw tmr tmrow 2moro 2morrow tomorrow 2day today 2nite tonite tonight".split(
    " ",
  ),
);

export const englishFillers: Array<[string, string]> = [
  ["i (?:just )?wanted to (?:let you know|inform you|tell you|say)(?: that)?", ""],
  ["just wanted to (?:let you know|say|tell you)(?: that)?", ""],
  ["(?:i|we)(?: would|'d|’d) like to (?:let you know|inform you)(?: that)?", ""],
  ["i was (?:just )?wondering if (?:you|u) (?:could|can|would)", "please"],
  ["i was (?:just )?wondering if", ""],
  ["(?:please )?(?:note|be advised|be aware|keep in mind) that", ""],
  ["it is important to note that", ""],
  ["as you (?:may )?(?:already )?know", ""],
  ["needless to say|as a matter of fact|to be honest|in my opinion", ""],
  ["i (?:think|believe|guess|feel like)(?: that)?", ""],
  ["at this point in time|at the present time", "now"],
  ["in order to", "to"],
  ["due to the fact that", "because"],
  ["in the event that", "if"],
  ["for the purpose of", "for"],
  ["each and every", "every"],
  ["first and foremost", "first"],
  ["a little bit", "a little"],
  ["(?:kind|sort) of", ""],
  ["just|actually|basically|really|literally|honestly|simply|totally|definitely|pretty much", ""],
];

// Single letters and names only count as chat spellings in lower case ("R&D", "Ty", "HR" stay).
export const englishLowercaseOnly = new Set(["r", "k", "ty", "hr", "hrs", "bc", "nd", "rn"]);

export const englishQuestionStarts = [
  /^(?:can|could|would|will|do|does|did|is|are|was|were|have|has|should|may|shall|am|isn't|aren't|don't|doesn't|didn't|can't|won't)\s+(?:you|i|we|it|they|he|she|this|that|there|these|those|your|my|our|the|someone|anyone|anybody|somebody)\b/i,
  /^(?:what|when|where|why|how|who|which|whose)(?:\s+\S+)?\s+(?:is|are|was|were|do|does|did|can|could|will|would|should|has|have|much|many|long|often|soon|far)\b/i,
  /^(?:why|how|what|when|where)(?:\s+not)?$/i,
];

export const englishGreeting = /^\s*(?:hi|hello|hey|hiya|good (?:morning|afternoon|evening))(?:\s+there)?\s*[,!]+\s*/i;

/** The phrases `explanatory` adds: a greeting, thanks, an offer of help and a signature. */
export const englishCourtesy: CourtesyPhrases = {
  greeting: "Hello",
  thanks: (name) => (name ? `thank you for contacting ${name}${/[.!?]$/.test(name) ? "" : "."}` : "thank you for contacting us."),
  help: "If you have any other questions, we're happy to help.",
  signature: (name) => `— ${name} team`,
};

// Words of one spelling written without their accent, and words a dictionary accepts without it
// but that chat drafts almost always mean with it.
export const englishWordFixes: Record<string, string> = { tommorow: "tomorrow", tomorow: "tomorrow", tommorrow: "tomorrow", wich: "which", becuase: "because", recieved: "received", adress: "address", adresses: "addresses" };

/** The accented letters a misspelled word may have lost (none in English). */
export const englishAccentOptions: Record<string, string[]> = {};
