import { getTranslations } from "next-intl/server";
import { ApiReference } from "@/components/docs/api-reference";
import { getEnv } from "@/lib/platform/env";
import { buildReference, type OpenApiDoc } from "@/lib/openapi/reference";
import { plantStoreDocument } from "@/lib/openapi/plant-store";

// The API's name is a product name and stays as it is in every language.
export async function generateMetadata() {
  return { title: (await getTranslations("apiReference"))("metaTitle", { title: "Plant Store API" }) };
}

/** The reference of the document GET /plant-store/openapi.json serves. */
export default function PlantStoreReferencePage() {
  const reference = buildReference(plantStoreDocument() as OpenApiDoc, { origin: getEnv().APP_URL });
  return <ApiReference reference={reference} documentUrl="/plant-store/openapi.json" />;
}
