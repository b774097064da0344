import Link from "next/link";
import { AuthShell } from "@/components/brand";
import { SetPasswordForm } from "@/components/identity/set-password-form";
import { Alert } from "@/components/ui/card";
import { ApiError } from "@/lib/platform/errors";
import { describePasswordReset } from "@/lib/users/passwords";
import { resetPasswordAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata = { title: "Choose a new password", referrer: "same-origin" };

export default async function ResetPasswordPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const reset = await describePasswordReset({ token }).catch((error: unknown) => {
    if (error instanceof ApiError) return { error: error.message };
    throw error;
  });
  if ("error" in reset) {
    return (
      <AuthShell title="This link does not work">
        <Alert>{reset.error}</Alert>
        <p className="mt-4 text-sm">
          <Link href="/login" className="font-medium text-brand-700 hover:underline">
            Go to sign-in
          </Link>
        </p>
      </AuthShell>
    );
  }
  return (
    <AuthShell title="Choose a new password" subtitle={`For ${reset.name}. Every session of this account is signed out when you save.`}>
      <SetPasswordForm action={resetPasswordAction.bind(null, token)} email={reset.email} askName={false} submitLabel="Save password" />
    </AuthShell>
  );
}
