import { z } from "zod";
import type { User } from "@/db/schema";
import { isoTimestamp, prefixedId } from "@/lib/platform/fields";
import { passwordSchema } from "@/lib/auth/password";
import { roleSchema } from "@/lib/auth/scopes";

export const emailSchema = z
  .string()
  .trim()
  .max(254, "must be at most 254 characters")
  .pipe(z.email("must be a valid email address"))
  .transform((email) => email.toLowerCase());

export const userNameSchema = z.string().trim().min(1, "is required").max(100, "must be at most 100 characters");

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

const userRefShape = {
  id: prefixedId("user"),
  name: z.string().meta({ example: "Ada Admin" }),
  email: z.string().meta({ format: "email", example: "ada@example.com" }),
  role: roleSchema,
};

// Strict: the same component serves answers and the webhook bodies that carry a user.
export const userOutput = z
  .strictObject({ ...userRefShape, created_at: isoTimestamp(), updated_at: isoTimestamp() })
  .meta({ id: "User", description: "A user of the account. Passwords are never returned." });
export type UserOutput = z.infer<typeof userOutput>;

/** Who acted, as conversation events name them. */
export const userRefOutput = z.strictObject(userRefShape).meta({ id: "UserRef", description: "The user who made the change." });
export type UserRefOutput = z.infer<typeof userRefOutput>;

/** A user as conversation events name them (no timestamps). */
export function presentUserRef(user: Pick<User, "id" | "name" | "email" | "role">): UserRefOutput {
  return { id: user.id, name: user.name, email: user.email, role: user.role };
}

/** The public shape of a user; the password hash never leaves through here. */
export function presentUser(user: Pick<User, "id" | "name" | "email" | "role" | "createdAt" | "updatedAt">): UserOutput {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    role: user.role,
    created_at: user.createdAt.toISOString(),
    updated_at: user.updatedAt.toISOString(),
  };
}
