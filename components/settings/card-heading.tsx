import { Alert } from "@/components/ui/card";

type Notice = { tone: "error" | "success"; text: string };

/** A settings card's title, what it is for, and the last outcome (an error unless told otherwise). */
export function CardHeading({ title, description, notice }: { title: string; description?: string; notice?: string | Notice }) {
  const shown = typeof notice === "string" ? { tone: "error" as const, text: notice } : notice;
  return (
    <>
      <h2 className="text-base font-semibold">{title}</h2>
      {description ? <p className="mt-1 text-sm text-slate-600">{description}</p> : null}
      {shown?.text ? (
        <div className="mt-3">
          <Alert tone={shown.tone}>{shown.text}</Alert>
        </div>
      ) : null}
    </>
  );
}
