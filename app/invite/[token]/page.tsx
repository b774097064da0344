import { getTranslations } from "next-intl/server";
import { TokenPasswordPage } from "@/components/identity/token-password-page";
import { describeInvitation } from "@/lib/users/invitations";
import { acceptInvitationAction } from "./actions";
import { systemContext } from "@/lib/server/context";

export const dynamic = "force-dynamic";
export async function generateMetadata() {
  return { title: (await getTranslations("auth.invite"))("metaTitle"), referrer: "same-origin" as const };
}

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const t = await getTranslations("auth.invite");
  return (
    <TokenPasswordPage
      describe={() => describeInvitation(systemContext(), { token })}
      brokenTitle={t("broken")}
      view={(invitation) => ({
        title: t("title", { account: invitation.accountName }),
        subtitle: t(invitation.role === "admin" ? "subtitleAdmin" : "subtitleAgent"),
        action: acceptInvitationAction.bind(null, token),
        askName: true,
        submitLabel: t("submit"),
      })}
    />
  );
}
