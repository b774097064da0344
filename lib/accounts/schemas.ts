import { z } from "zod";

/** `GET /v1/account` */
export const accountSummaryOutput = z.object({
  id: z.string().meta({ example: "acc_01jd2x8k3f0m6q1v9w4r7t5y2z" }),
  name: z.string(),
  phone_number: z.string().nullable().meta({ description: "The business number (E.164), once configured.", example: "+15550100199" }),
  number_status: z.enum(["sandbox", "pending", "connected", "error"]),
  coexistence: z.boolean().meta({ description: "The number stays usable in the business app and its messages sync into the inbox." }),
  created_at: z.string().meta({ format: "date-time", example: "2026-11-22T10:15:30.123Z" }),
  users: z.object({ total: z.int().min(0), admins: z.int().min(0), agents: z.int().min(0) }),
});

/** `GET/PUT /v1/config/security`: the account's sign-in rules. */
export const securitySettingsInput = z.strictObject({
  require_mfa: z.boolean().meta({ description: "Every user must sign in with a second factor (an authenticator app code)." }),
});
export const securitySettingsOutput = securitySettingsInput.meta({ id: "SecuritySettings" });
export type SecuritySettings = z.infer<typeof securitySettingsOutput>;
