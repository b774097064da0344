import { apiReferenceRoute } from "@/lib/openapi/reference-page";

export const dynamic = "force-dynamic";

export const GET = apiReferenceRoute({ page: "/docs/v1", documentUrl: "/v1/openapi.json", title: "Chorus API reference" });
