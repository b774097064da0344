import { TokenPasswordPage } from "@/components/identity/token-password-page";
import { describePasswordReset } from "@/lib/users/passwords";
import { resetPasswordAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata = { title: "Choose a new password", referrer: "same-origin" };

export default async function ResetPasswordPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  return (
    <TokenPasswordPage
      describe={() => describePasswordReset({ token })}
      brokenTitle="This link does not work"
      view={(reset) => ({
        title: "Choose a new password",
        subtitle: `For ${reset.name}. Every session of this account is signed out when you save.`,
        action: resetPasswordAction.bind(null, token),
        askName: false,
        submitLabel: "Save password",
      })}
    />
  );
}
