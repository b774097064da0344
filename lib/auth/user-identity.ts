import { z } from "zod";
import type { User } from "@/db/schema";
import { isoTimestamp, prefixedId } from "@/lib/platform/fields";
import { roleSchema } from "./scopes";

// Who a user is, as sign-in, events and every domain name them; the users domain manages them.

export const emailSchema = z
  .string()
  .trim()
  .max(254, "must be at most 254 characters")
  .pipe(z.email("must be a valid email address"))
  .transform((email) => email.toLowerCase());

export const userNameSchema = z.string().trim().min(1, "is required").max(100, "must be at most 100 characters");

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
