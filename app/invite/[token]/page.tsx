import { TokenPasswordPage } from "@/components/identity/token-password-page";
import { describeInvitation } from "@/lib/users/invitations";
import { acceptInvitationAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata = { title: "Join your team", referrer: "same-origin" };

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  return (
    <TokenPasswordPage
      describe={() => describeInvitation({ token })}
      brokenTitle="This invitation does not work"
      view={(invitation) => ({
        title: `Join ${invitation.accountName}`,
        subtitle: `You were invited as ${invitation.role === "admin" ? "an administrator" : "an agent"}. Choose your name and password.`,
        action: acceptInvitationAction.bind(null, token),
        askName: true,
        submitLabel: "Join the team",
      })}
    />
  );
}
