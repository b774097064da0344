/**
 * API errors name fields the way the wire does (`data: must be a PDF…`, `["*"]`); forms show
 * people sentences. This turns one error message into one plain sentence.
 */

// Wire names of fields → what a form calls them.
const fieldNames: Record<string, string> = {
  data: "The file",
  filename: "The file name",
  events: "The event list",
  url: "The address",
  secret: "The signing secret",
  email: "The email address",
  password: "The password",
  name: "The name",
  role: "The role",
  scopes: "The permissions",
  expires_in_days: "The expiry",
  text: "The message",
  to: "The number",
  from: "The number",
  "media.data": "The file",
  "media.mime_type": "The file type",
  "media.filename": "The file name",
  "media.caption": "The caption",
  access_token: "The access token",
  phone_number_id: "The phone number id",
  app_secret: "The app secret",
  verify_token: "The verify token",
  "Idempotency-Key": "The request key",
  "Last-Event-ID": "The resume point",
};

const labelFor = (path: string) => {
  const known = fieldNames[path];
  if (known) return known;
  const last = path.split(".").filter((part) => !/^\d+$/.test(part)).pop() ?? path;
  const words = last.replace(/_/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  return `The ${words}`;
};

function sentence(text: string) {
  const trimmed = text.trim();
  if (!trimmed) return trimmed;
  const capital = trimmed[0].toUpperCase() + trimmed.slice(1);
  return /[.!?…]$/.test(capital) ? capital : `${capital}.`;
}

/** One field's error as a sentence: `must be a PDF…` for `data` → "The file must be a PDF…". */
export function plainFieldError(path: string, message: string): string {
  const text = message.replace(/\["\*"\]/g, "“All events”").replace(/"\*"/g, "“All events”");
  // Messages that already read as a sentence of their own keep their words.
  if (/^[A-Z]/.test(text)) return sentence(text);
  return sentence(`${labelFor(path)} ${text}`);
}

/** A whole error message (`path: message; path: message` or free text) as plain sentences. */
export function plainErrorMessage(message: string): string {
  const parts = message.split(/;\s+/);
  const translated = parts.map((part) => {
    const match = /^([A-Za-z_][\w.[\]-]*): (.+)$/s.exec(part);
    return match ? plainFieldError(match[1], match[2]) : sentence(part.replace(/\["\*"\]/g, "“All events”"));
  });
  return translated.join(" ");
}

/** What a failed request means for the person at the keyboard, by HTTP status. */
export function plainStatusMessage(status: number, message?: string): string {
  if (status === 0) return "Could not reach Chorus. Check your connection and try again.";
  if (status === 401) return "Your session has ended. Sign in again to continue.";
  if (status === 403) return message ? plainErrorMessage(message) : "Your role does not allow this.";
  if (status === 413) return "That is too large to send.";
  if (status === 429) return "Too many requests at once. Wait a moment and try again.";
  if (status >= 500) return "Chorus had a problem on its side. Try again in a moment.";
  return message ? plainErrorMessage(message) : `The request failed (${status}).`;
}
