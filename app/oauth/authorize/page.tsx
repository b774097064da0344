import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { AuthShell } from "@/components/brand";
import { scopeLabelsIn } from "@/components/oauth/scope-labels";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { getCurrentSession, requireSession } from "@/lib/server/session";
import { checkAuthorizeRequest, signConsent, type UntrustedReason } from "@/lib/oauth/authorize";

export const dynamic = "force-dynamic";
export async function generateMetadata() {
  return { title: (await getTranslations("oauth"))("title") };
}

type Params = Record<string, string | string[] | undefined>;

const single = (params: Params) =>
  Object.fromEntries(Object.entries(params).map(([k, v]) => [k, Array.isArray(v) ? undefined : v])) as Record<string, string | undefined>;

/** OAuth 2.0 authorization endpoint: sign-in if needed, then the consent page. */
export default async function AuthorizePage({ searchParams }: { searchParams: Promise<Params> }) {
  const params = await searchParams;
  const session = await getCurrentSession();
  if (!session) {
    const query = new URLSearchParams(Object.entries(single(params)).filter((e): e is [string, string] => typeof e[1] === "string"));
    redirect(`/login?next=${encodeURIComponent(`/oauth/authorize?${query}`)}`);
  }
  // An account that requires two-factor sign-in: a session without it signs in again or sets it up first.
  if (session.secondFactor !== "ok") await requireSession();
  // A parameter sent twice is ambiguous: RFC 6749 says refuse it.
  const repeated = Object.entries(params).find(([, v]) => Array.isArray(v));
  const check = repeated
    ? ({ ok: false, redirect: null, reason: "repeated_parameter", message: `The parameter ${repeated[0]} is repeated.` } as const)
    : await checkAuthorizeRequest(session.db, single(params), { role: session.user.role, accountId: session.accountId });
  const t = await getTranslations("oauth");
  if (!check.ok) {
    if (check.redirect !== null) redirect(check.redirect);
    const problem: Record<UntrustedReason, string> = {
      missing_client_id: t("invalid.missing_client_id"),
      unknown_client: t("invalid.unknown_client"),
      missing_redirect_uri: t("invalid.missing_redirect_uri"),
      unregistered_redirect_uri: t("invalid.unregistered_redirect_uri"),
      other_account: t("invalid.other_account"),
      repeated_parameter: t("invalid.repeated_parameter", { name: repeated?.[0] ?? "" }),
    };
    return (
      <AuthShell title={t("invalidTitle")} subtitle={t("invalidSubtitle")}>
        <Alert>{problem[check.reason]}</Alert>
        <p className="mt-4 text-sm text-slate-600">{t("invalidHint")}</p>
      </AuthShell>
    );
  }
  const scopeLabels = scopeLabelsIn(await getTranslations("oauth.scopes"));
  const { request } = check;
  const consent = await signConsent(request, session.user.id);
  const host = new URL(request.redirectUri).host;
  return (
    <AuthShell title={t("question", { app: request.app.name })} subtitle={t("signedInAs", { name: session.user.name, email: session.user.email })}>
      <p className="text-sm text-slate-700">{t.rich("willAct", { app: request.app.name, strong: (chunks) => <strong>{chunks}</strong> })}</p>
      <ul className="mt-3 flex flex-col gap-2" aria-label={t("permissions")}>
        {request.scopes.map((scope) => (
          <li key={scope} className="flex items-start gap-2 rounded-md border border-slate-200 px-3 py-2 text-sm">
            <span aria-hidden className="mt-0.5 text-brand-600">✓</span>
            <span>
              <span className="block text-slate-800">{scopeLabels[scope]}</span>
              <code className="text-xs text-slate-500" translate="no">
                {scope}
              </code>
            </span>
          </li>
        ))}
      </ul>
      <p className="mt-4 text-xs text-slate-500">
        {t.rich("goBack", {
          host,
          site: (chunks) => (
            <span className="font-medium text-slate-700" translate="no">
              {chunks}
            </span>
          ),
        })}
      </p>
      <form method="post" action="/oauth/consent" className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <input type="hidden" name="consent" value={consent} />
        <Button type="submit" name="decision" value="deny" variant="secondary">
          {t("deny")}
        </Button>
        <Button type="submit" name="decision" value="allow">
          {t("allow")}
        </Button>
      </form>
    </AuthShell>
  );
}
