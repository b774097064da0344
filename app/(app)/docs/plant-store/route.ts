import { apiReferenceRoute } from "@/lib/openapi/reference-page";

export const dynamic = "force-dynamic";

export const GET = apiReferenceRoute({ page: "/docs/plant-store", documentUrl: "/plant-store/openapi.json", title: "Plant Store API reference" });
