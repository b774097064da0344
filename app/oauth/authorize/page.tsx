import { redirect } from "next/navigation";
import { AuthShell } from "@/components/brand";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { getCurrentSession, requireSession } from "@/lib/auth/current-user";
import { scopeLabels } from "@/lib/auth/scope-labels";
import { checkAuthorizeRequest, signConsent } from "@/lib/oauth/authorize";

export const dynamic = "force-dynamic";
export const metadata = { title: "Allow access" };

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
    ? ({ ok: false, redirect: null, message: `The parameter ${repeated[0]} is repeated.` } as const)
    : await checkAuthorizeRequest(single(params), { role: session.user.role, accountId: session.accountId });
  if (!check.ok) {
    if (check.redirect) redirect(check.redirect);
    return (
      <AuthShell title="This link does not work" subtitle="The app sent you here with a request Chorus cannot accept.">
        <Alert>{check.message}</Alert>
        <p className="mt-4 text-sm text-slate-600">Tell the app&apos;s developer. You can close this page.</p>
      </AuthShell>
    );
  }
  const { request } = check;
  const consent = await signConsent(request, session.user.id);
  const host = new URL(request.redirectUri).host;
  return (
    <AuthShell title={`Allow ${request.app.name} to use Chorus?`} subtitle={`Signed in as ${session.user.name} (${session.user.email}).`}>
      <p className="text-sm text-slate-700">
        <strong>{request.app.name}</strong> will be able to act for you in this account:
      </p>
      <ul className="mt-3 flex flex-col gap-2" aria-label="Requested permissions">
        {request.scopes.map((scope) => (
          <li key={scope} className="flex items-start gap-2 rounded-md border border-slate-200 px-3 py-2 text-sm">
            <span aria-hidden className="mt-0.5 text-brand-600">✓</span>
            <span>
              <span className="block text-slate-800">{scopeLabels[scope]}</span>
              <code className="text-xs text-slate-500">{scope}</code>
            </span>
          </li>
        ))}
      </ul>
      <p className="mt-4 text-xs text-slate-500">
        You will go back to <span className="font-medium text-slate-700">{host}</span>. You can remove this access at any time in Settings →
        Account.
      </p>
      <form method="post" action="/oauth/consent" className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <input type="hidden" name="consent" value={consent} />
        <Button type="submit" name="decision" value="deny" variant="secondary">
          Deny
        </Button>
        <Button type="submit" name="decision" value="allow">
          Allow access
        </Button>
      </form>
    </AuthShell>
  );
}
