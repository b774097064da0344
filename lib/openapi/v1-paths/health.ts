import { healthOutput } from "@/lib/server/schemas";
import { operationsFor, type V1Domain } from "../v1-common";

const tag = { name: "Health", description: "Readiness of the database and the background jobs." };
const op = operationsFor(tag.name);

export const healthDomain: V1Domain = {
  tag,
  paths: {
    "/v1/health": {
      get: op({
        operationId: "getHealth",
        summary: "Check health",
        description: "`degraded` when the database fails or your account's background jobs wait for more than 5 minutes. Only your account's jobs are counted. For an unauthenticated liveness probe use `GET /healthz` (answers `ok`).",
        access: { auth: "any" },
        success: { status: "200", description: "The health report.", schema: healthOutput.meta({ id: "Health" }) },
      }),
    },
  },
};
