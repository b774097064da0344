import { z } from "zod";
import type { User } from "@/db/schema";
import { isoTimestamp, prefixedId } from "@/lib/platform/fields";
import { locales } from "@/lib/platform/i18n/locales";
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
export const availabilities = ["online", "busy", "offline"] as const;
export type Availability = (typeof availabilities)[number];
/** How long an `online` person may do nothing before they read as `away`, unless the account chose otherwise. */
export const DEFAULT_AWAY_AFTER_S = 600;

export const userOutput = z
  .strictObject({
    ...userRefShape,
    availability: z.enum([...availabilities, "away"]).meta({
      description:
        "What the person set (`online`, `busy`, `offline`); `online` reads as `away` once they have done nothing for the account's away delay (10 minutes unless changed in the assignment settings). Only `online` people receive conversations automatically.",
      example: "online",
    }),
    locale: z.enum(locales).nullable().meta({
      description:
        "The interface language the person chose (`en`, `es`, `pt-BR`); `null` until they choose, when the interface follows the account's business language. Set with `PATCH /v1/users/me`.",
      example: "es",
    }),
    created_at: isoTimestamp(),
    updated_at: isoTimestamp(),
  })
  .meta({ id: "User", description: "A user of the account. Passwords are never returned." });
export type UserOutput = z.infer<typeof userOutput>;

/** Who acted, as conversation events name them. */
export const userRefOutput = z.strictObject(userRefShape).meta({ id: "UserRef", description: "The user who made the change." });
export type UserRefOutput = z.infer<typeof userRefOutput>;

/** A user as conversation events name them (no timestamps). */
export function presentUserRef(user: Pick<User, "id" | "name" | "email" | "role">): UserRefOutput {
  return { id: user.id, name: user.name, email: user.email, role: user.role };
}

/** `online` without activity for `awayAfterS` (or never active) is `away`. */
function effectiveAvailability(
  user: Pick<User, "availability" | "lastActiveAt">,
  { awayAfterS = DEFAULT_AWAY_AFTER_S, now = new Date() }: { awayAfterS?: number; now?: Date } = {},
): Availability | "away" {
  if (user.availability !== "online") return user.availability;
  return user.lastActiveAt && now.getTime() - user.lastActiveAt.getTime() <= awayAfterS * 1000 ? "online" : "away";
}

/** The public shape of a user; the password hash never leaves through here. */
export function presentUser(
  user: Pick<User, "id" | "name" | "email" | "role" | "createdAt" | "updatedAt" | "availability" | "lastActiveAt" | "locale">,
  options?: { awayAfterS?: number },
): UserOutput {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    role: user.role,
    availability: effectiveAvailability(user, options),
    locale: user.locale ?? null,
    created_at: user.createdAt.toISOString(),
    updated_at: user.updatedAt.toISOString(),
  };
}
