import { getTranslations } from "next-intl/server";
import { TokenPasswordPage } from "@/components/identity/token-password-page";
import { describePasswordReset } from "@/lib/users/passwords";
import { resetPasswordAction } from "./actions";
import { systemContext } from "@/lib/server/context";

export const dynamic = "force-dynamic";
export async function generateMetadata() {
  return { title: (await getTranslations("auth.reset"))("title"), referrer: "same-origin" as const };
}

export default async function ResetPasswordPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const t = await getTranslations("auth.reset");
  return (
    <TokenPasswordPage
      describe={() => describePasswordReset(systemContext(), { token })}
      brokenTitle={t("broken")}
      view={(reset) => ({
        title: t("title"),
        subtitle: t("subtitle", { name: reset.name }),
        action: resetPasswordAction.bind(null, token),
        askName: false,
        submitLabel: t("submit"),
      })}
    />
  );
}
