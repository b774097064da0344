/** What a settings action last did, or why it failed: read out by screen readers (an error at once). */
export type Note = { tone: "ok" | "error"; text: string };

export function StatusNote({ message }: { message?: Note }) {
  if (!message) return null;
  return (
    <p role={message.tone === "error" ? "alert" : "status"} className={`text-sm ${message.tone === "error" ? "text-red-700" : "text-emerald-700"}`}>
      {message.text}
    </p>
  );
}
