import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { AuthShell } from "@/components/brand";
import { SetPasswordForm, type SetPasswordState } from "@/components/identity/set-password-form";
import { Alert } from "@/components/ui/card";
import { ApiError } from "@/lib/platform/errors";

/**
 * A page reached through an emailed link (an invitation, a password reset): the password form
 * once the link is good, or a plain explanation and a way to sign-in when it is not.
 */
export async function TokenPasswordPage<T extends { email: string }>({
  describe,
  brokenTitle,
  view,
}: {
  describe: () => Promise<T>;
  brokenTitle: string;
  view: (described: T) => {
    title: string;
    subtitle: string;
    action: (state: SetPasswordState, form: FormData) => Promise<SetPasswordState>;
    askName: boolean;
    submitLabel: string;
  };
}) {
  const t = await getTranslations("auth");
  const errors = await getTranslations("errors");
  const described = await describe().catch((error: unknown) => {
    // Why the link does not work, from its error code in the reader's language.
    if (error instanceof ApiError) return { error: error.code !== "not_found" && errors.has(`code.${error.code}`) ? errors(`code.${error.code}`) : t("linkBroken") };
    throw error;
  });
  if ("error" in described) {
    return (
      <AuthShell title={brokenTitle}>
        <Alert>{described.error}</Alert>
        <p className="mt-4 text-sm">
          <Link href="/login" className="font-medium text-brand-700 hover:underline">
            {t("goToSignIn")}
          </Link>
        </p>
      </AuthShell>
    );
  }
  const { title, subtitle, action, askName, submitLabel } = view(described);
  return (
    <AuthShell title={title} subtitle={subtitle}>
      <SetPasswordForm action={action} email={described.email} askName={askName} submitLabel={submitLabel} />
    </AuthShell>
  );
}
