import { apiRoute, defineRoute } from "@/lib/api/route";
import { listAuditLog } from "@/lib/audit/list-audit-log";
import { auditLogQuery } from "@/lib/audit/schemas";

// Read only: no method changes the log.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "audit:read" }, query: auditLogQuery }, ({ ctx, query }) => listAuditLog({ ctx, query })),
});
