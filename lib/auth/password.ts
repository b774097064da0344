import { z } from "zod";

export const passwordSchema = z
  .string()
  .min(10, "must be at least 10 characters")
  .max(200, "must be at most 200 characters");

// argon2id (the library's default algorithm) with OWASP's suggested minimum cost.
const options = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

// The native module loads at the first sign-in or password set, not with every server process.
const argon2 = () => import("@node-rs/argon2");

export async function hashPassword(password: string): Promise<string> {
  return (await argon2()).hash(password, options);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await (await argon2()).verify(passwordHash, password);
  } catch {
    return false;
  }
}

// Verifying against this when the email is unknown keeps both answers equally slow.
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword("chorus-timing-equaliser");
  return dummyHash;
}
