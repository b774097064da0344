import { getTranslations } from "next-intl/server";
import { BusinessProfileEditor } from "@/components/settings/business-profile-editor";
import { DocumentsManager } from "@/components/settings/documents-manager";
import { PolishPlayground } from "@/components/settings/polish-playground";
import { PageHeader } from "@/components/ui/page-header";
import { requireSession } from "@/lib/server/session";
import { getBusinessProfile } from "@/lib/profile/business-profile";
import { listDocuments } from "@/lib/profile/documents";
import { isLanguageModelConfigured } from "@/lib/polish/polish";
import { DOCUMENT_MAX_BYTES, DOCUMENTS_PER_ACCOUNT } from "@/lib/profile/schemas";

export async function generateMetadata() {
  return { title: (await getTranslations("settingsProfile"))("title") };
}

/** The zones offered by the picker come from the server so the list cannot differ between render and hydration. */
function timeZoneList(current: string | undefined): string[] {
  const zones = new Set(Intl.supportedValuesOf("timeZone"));
  zones.add("UTC");
  if (current) zones.add(current);
  return [...zones].sort();
}

export default async function BusinessProfilePage() {
  const session = await requireSession();
  const canEdit = session.user.role === "admin";
  const [profile, documents, t] = await Promise.all([
    getBusinessProfile({ ctx: session }),
    listDocuments({ ctx: session, limit: DOCUMENTS_PER_ACCOUNT }),
    getTranslations("settingsProfile"),
  ]);
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      <div className="flex flex-col gap-6">
        <BusinessProfileEditor profile={profile} timeZones={timeZoneList(profile.hours?.timezone)} canEdit={canEdit} />
        <DocumentsManager
          documents={documents.data}
          canEdit={canEdit}
          maxBytes={DOCUMENT_MAX_BYTES}
          maxCount={DOCUMENTS_PER_ACCOUNT}
          languageModel={isLanguageModelConfigured()}
        />
        <PolishPlayground />
      </div>
    </>
  );
}
