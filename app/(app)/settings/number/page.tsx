import { getTranslations } from "next-intl/server";
import { getAppFormat } from "@/components/i18n/get-app-format";
import { NetworkSignup } from "@/components/settings/network-signup";
import { NumberSettingsForm } from "@/components/settings/number-settings-form";
import { Card } from "@/components/ui/card";
import { AdminOnlyPage } from "@/components/settings/admin-only";
import { PageHeader } from "@/components/ui/page-header";
import { requireSession } from "@/lib/server/session";
import { getEnv } from "@/lib/platform/env";
import { getNumberConfig } from "@/lib/network/number-config";

const qualityTone: Record<string, string> = { GREEN: "bg-green-100 text-green-800", YELLOW: "bg-amber-100 text-amber-800", RED: "bg-red-100 text-red-800" };

export async function generateMetadata() {
  return { title: (await getTranslations("settingsNumber"))("title") };
}

type Translate = Awaited<ReturnType<typeof getTranslations>>;

// Catalog keys (namespace settingsNumber.health) of the network's quality ratings.
const qualityLabel: Record<string, string> = { GREEN: "qualityValue.GREEN", YELLOW: "qualityValue.YELLOW", RED: "qualityValue.RED" };

/** The messaging limit tier in words: TIER_1K is a thousand customers a day. */
function describeTier(t: Translate, tier: string | null): string {
  if (!tier) return t("notReported");
  if (tier === "TIER_UNLIMITED") return t("unlimited");
  if (tier === "TIER_NOT_SET") return t("notSet");
  const match = /^TIER_(\d+)(K?)$/.exec(tier);
  if (!match) return tier;
  return t("perDay", { count: Number(match[1]) * (match[2] ? 1000 : 1) });
}

export default async function NumberSettingsPage() {
  const [session, t, th, format] = await Promise.all([requireSession(), getTranslations("settingsNumber"), getTranslations("settingsNumber.health"), getAppFormat()]);
  const header = <PageHeader title={t("title")} description={t("description")} />;
  if (session.user.role !== "admin") return <AdminOnlyPage header={header} notice={t("adminOnly")} />;
  const config = await getNumberConfig({ ctx: session });
  return (
    <>
      {header}
      <div className="flex flex-col gap-6">
        <Card>
          <h2 className="text-base font-semibold text-slate-900">{t("before.title")}</h2>
          <ul className="mt-3 list-disc space-y-1.5 ps-5 text-sm text-slate-700">
            <li>{t("before.sms")}</li>
            <li>{t("before.registered")}</li>
            <li>{t("before.notElsewhere")}</li>
            <li>{t("before.e164")}</li>
            <li>{t("before.virtual")}</li>
          </ul>
        </Card>
        {config.provider === "cloud" ? (
          <Card>
            <h2 className="text-base font-semibold text-slate-900">{th("title")}</h2>
            <p className="mt-1 text-sm text-slate-600">
              {th("description")}
            </p>
            <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm" data-testid="number-health">
              <dt className="text-slate-600">{th("quality")}</dt>
              <dd>
                <span className={`rounded-full px-2 py-0.5 font-medium ${qualityTone[config.quality_rating ?? ""] ?? "bg-slate-100 text-slate-700"}`} data-testid="quality-rating">
                  {qualityLabel[config.quality_rating ?? ""] ? th(qualityLabel[config.quality_rating ?? ""]) : th("notReported")}
                </span>
              </dd>
              <dt className="text-slate-600">{th("limit")}</dt>
              <dd data-testid="messaging-limit">{describeTier(th, config.messaging_limit_tier)}</dd>
              {config.health_updated_at ? (
                <>
                  <dt className="text-slate-600">{th("updated")}</dt>
                  <dd>
                    <time dateTime={config.health_updated_at}>{format.dateTime(config.health_updated_at)}</time>
                  </dd>
                </>
              ) : null}
            </dl>
          </Card>
        ) : null}
        <NetworkSignup appId={getEnv().NETWORK_APP_ID ?? null} configId={getEnv().NETWORK_CONFIG_ID ?? null} />
        <NumberSettingsForm initial={config} />
      </div>
    </>
  );
}
