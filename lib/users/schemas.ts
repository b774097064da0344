import { z } from "zod";
import { passwordSchema } from "@/lib/auth/password";
import { roleSchema } from "@/lib/auth/scopes";
import { emailSchema, userNameSchema } from "@/lib/auth/user-identity";
import { locales } from "@/lib/platform/i18n/locales";

const roleField = roleSchema.meta({ description: "`admin` (everything) or `agent` (answers conversations; no administrative configuration)." });
const passwordField = passwordSchema.meta({ description: "10 to 200 characters. Never returned." });

export const createUserInput = z.object({
  name: userNameSchema.meta({ description: "1 to 100 characters.", example: "Alex Agent" }),
  email: emailSchema.meta({ description: "Unique in the account; stored lower-cased.", example: "alex@example.com" }),
  role: roleField,
  password: passwordField,
});
export type CreateUserInput = z.infer<typeof createUserInput>;

export const updateUserInput = z
  .object({
    name: userNameSchema.optional(),
    email: emailSchema.optional(),
    role: roleField.optional(),
    password: passwordField.optional().meta({ description: "A new password signs the user out of every session." }),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: "send at least one field to change" });
export type UpdateUserInput = z.infer<typeof updateUserInput>;

/** What a person may change about themselves (any session of theirs). */
export const updateMeInput = z
  .strictObject({
    locale: z.enum(locales, { error: "must be one of en, es, pt-BR" }).meta({
      description: "The interface language: `en`, `es` or `pt-BR`. Takes effect on the next page load.",
      example: "pt-BR",
    }),
  })
  .meta({ id: "UpdateMe" });
export type UpdateMeInput = z.infer<typeof updateMeInput>;
