import { NetworkSignup } from "@/components/settings/network-signup";
import { NumberSettingsForm } from "@/components/settings/number-settings-form";
import { Alert, Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { requireSession } from "@/lib/auth/current-user";
import { getEnv } from "@/lib/platform/env";
import { getNumberConfig } from "@/lib/network/number-config";
import { describeQuality, describeTier } from "@/lib/network/number-health";

const qualityTone: Record<string, string> = { GREEN: "bg-green-100 text-green-800", YELLOW: "bg-amber-100 text-amber-800", RED: "bg-red-100 text-red-800" };

export const metadata = { title: "Number" };

export default async function NumberSettingsPage() {
  const session = await requireSession();
  const header = (
    <PageHeader
      title="Number"
      description="Connect the business messaging number your team answers. Until you connect one, the sandbox lets you try everything without an external service."
    />
  );
  if (session.user.role !== "admin") {
    return (
      <>
        {header}
        <Alert tone="info">Only administrators can view and change the number settings. Ask an administrator of your account.</Alert>
      </>
    );
  }
  const config = await getNumberConfig({ ctx: session });
  return (
    <>
      {header}
      <div className="flex flex-col gap-6">
        <Card>
          <h2 className="text-base font-semibold text-slate-900">Before you connect a number</h2>
          <ul className="mt-3 list-disc space-y-1.5 pl-5 text-sm text-slate-700">
            <li>It must be able to receive an SMS or a voice call, to verify it.</li>
            <li>It must be registered in the business app of the messaging network.</li>
            <li>It must not be active on another account of the network at the same time.</li>
            <li>Write it in international E.164 format: a + then the country code and the number, digits only (for example +14155552671).</li>
            <li>Virtual and VoIP numbers may fail verification; a mobile or landline number is the safest choice.</li>
          </ul>
        </Card>
        {config.provider === "cloud" ? (
          <Card>
            <h2 className="text-base font-semibold text-slate-900">Number health</h2>
            <p className="mt-1 text-sm text-slate-600">
              As the network last reported it. A low quality rating or a lower limit means customers are blocking or reporting your messages; administrators get a notification when either drops.
            </p>
            <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm" data-testid="number-health">
              <dt className="text-slate-600">Quality rating</dt>
              <dd>
                <span className={`rounded-full px-2 py-0.5 font-medium ${qualityTone[config.quality_rating ?? ""] ?? "bg-slate-100 text-slate-700"}`} data-testid="quality-rating">
                  {describeQuality(config.quality_rating)}
                </span>
              </dd>
              <dt className="text-slate-600">Messaging limit</dt>
              <dd data-testid="messaging-limit">{describeTier(config.messaging_limit_tier)}</dd>
              {config.health_updated_at ? (
                <>
                  <dt className="text-slate-600">Updated</dt>
                  <dd>
                    <time dateTime={config.health_updated_at}>{new Date(config.health_updated_at).toUTCString()}</time>
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
