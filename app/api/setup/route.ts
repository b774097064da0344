import { isSetupDone, setupDone, setupFirstAccount, setupInput } from "@/lib/accounts/setup";
import { apiRoute, created, defineRoute } from "@/lib/api/route";
import { JSON_BODY_LIMIT, parseJsonBody } from "@/lib/platform/http/read-body";
import { matchAcceptLanguage } from "@/lib/platform/i18n/locales";
import { systemContext } from "@/lib/server/context";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  // Once set up, every call is a 409, whatever its body: the body is read only before that.
  POST: apiRoute({ access: { auth: "none" } }, async ({ req }) => {
    const { db } = systemContext();
    if (await isSetupDone(db)) throw setupDone();
    const { value } = await parseJsonBody(req, { limit: JSON_BODY_LIMIT, allowEmpty: false });
    // The first administrator's interface language starts as their browser's.
    return created(await setupFirstAccount(db, setupInput.parse(value), { locale: matchAcceptLanguage(req.headers.get("accept-language")) }));
  }),
});
