import { getTranslations } from "next-intl/server";
import { ApiReference } from "@/components/docs/api-reference";
import { getEnv } from "@/lib/platform/env";
import { buildReference, type OpenApiDoc } from "@/lib/openapi/reference";
import { v1Document } from "@/lib/openapi/v1";

// The API's name is a product name and stays as it is in every language.
export async function generateMetadata() {
  return { title: (await getTranslations("apiReference"))("metaTitle", { title: "Chorus API" }) };
}

/** The reference of the document GET /v1/openapi.json serves. */
export default function V1ReferencePage() {
  const reference = buildReference(v1Document() as OpenApiDoc, { origin: getEnv().APP_URL });
  return <ApiReference reference={reference} documentUrl="/v1/openapi.json" />;
}
