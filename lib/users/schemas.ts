import { z } from "zod";
import type { User } from "@/db/schema";
import { passwordSchema } from "@/lib/auth/password";
import { roleSchema } from "@/lib/auth/scopes";

export const emailSchema = z
  .string()
  .trim()
  .max(254, "must be at most 254 characters")
  .pipe(z.email("must be a valid email address"))
  .transform((email) => email.toLowerCase());

export const userNameSchema = z.string().trim().min(1, "is required").max(100, "must be at most 100 characters");

export const createUserInput = z.object({
  name: userNameSchema,
  email: emailSchema,
  role: roleSchema,
  password: passwordSchema,
});
export type CreateUserInput = z.infer<typeof createUserInput>;

export const updateUserInput = z
  .object({
    name: userNameSchema.optional(),
    email: emailSchema.optional(),
    role: roleSchema.optional(),
    password: passwordSchema.optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: "send at least one field to change" });
export type UpdateUserInput = z.infer<typeof updateUserInput>;

export const userOutput = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: roleSchema,
  created_at: z.string(),
  updated_at: z.string(),
});
export type UserOutput = z.infer<typeof userOutput>;

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
