import { NetworkSignup } from "@/components/settings/network-signup";
import { NumberSettingsForm } from "@/components/settings/number-settings-form";
import { Alert, Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { requireSession } from "@/lib/auth/current-user";
import { getEnv } from "@/lib/platform/env";
import { getNumberConfig } from "@/lib/network/number-config";

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
        <NetworkSignup appId={getEnv().NETWORK_APP_ID ?? null} configId={getEnv().NETWORK_CONFIG_ID ?? null} />
        <NumberSettingsForm initial={config} />
      </div>
    </>
  );
}
