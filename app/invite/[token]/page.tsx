import Link from "next/link";
import { AuthShell } from "@/components/brand";
import { SetPasswordForm } from "@/components/identity/set-password-form";
import { Alert } from "@/components/ui/card";
import { ApiError } from "@/lib/platform/errors";
import { describeInvitation } from "@/lib/users/invitations";
import { acceptInvitationAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata = { title: "Join your team", referrer: "same-origin" };

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const invitation = await describeInvitation({ token }).catch((error: unknown) => {
    if (error instanceof ApiError) return { error: error.message };
    throw error;
  });
  if ("error" in invitation) {
    return (
      <AuthShell title="This invitation does not work">
        <Alert>{invitation.error}</Alert>
        <p className="mt-4 text-sm">
          <Link href="/login" className="font-medium text-brand-700 hover:underline">
            Go to sign-in
          </Link>
        </p>
      </AuthShell>
    );
  }
  return (
    <AuthShell title={`Join ${invitation.accountName}`} subtitle={`You were invited as ${invitation.role === "admin" ? "an administrator" : "an agent"}. Choose your name and password.`}>
      <SetPasswordForm action={acceptInvitationAction.bind(null, token)} email={invitation.email} askName submitLabel="Join the team" />
    </AuthShell>
  );
}
