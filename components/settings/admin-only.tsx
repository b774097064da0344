import { getTranslations } from "next-intl/server";
import { Alert, Card } from "@/components/ui/card";

/** What a non-administrator sees on an administrators' page; `what` names the page's task. */
export async function AdminOnlyNotice({ what }: { what: "users" | "auditLog" | "apps" }) {
  const t = await getTranslations("settingsAdminOnly");
  const sentence = { users: t("users"), auditLog: t("auditLog"), apps: t("apps") }[what];
  return (
    <Card>
      <h1 className="text-lg font-semibold">{t("title")}</h1>
      <p className="mt-1 text-sm text-slate-600">{sentence}</p>
    </Card>
  );
}

/** An administrators' page as anyone else sees it: its header, and a note that the rest is theirs. */
export function AdminOnlyPage({ header, notice }: { header: React.ReactNode; notice: string }) {
  return (
    <>
      {header}
      <Alert tone="info">{notice}</Alert>
    </>
  );
}
