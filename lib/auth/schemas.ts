import { z } from "zod";
import { userOutput } from "@/lib/auth/user-identity";
import { createTokenInput, tokenOutput } from "./token-schemas";
import { loginInput } from "./login";
import { scopeSchema } from "./scopes";

export { createTokenInput, loginInput, tokenOutput };

const when = (description: string) => z.string().meta({ format: "date-time", description, example: "2026-11-23T10:15:30.123Z" });
const jwt = z.string().meta({ description: "The bearer token (a JWT).", example: "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c3JfMDEifQ.c2lnbmF0dXJl" });
const tokenType = z.enum(["api", "session", "oauth"]);

/** `POST /v1/auth/login` */
export const loginOutput = z.object({
  token: jwt,
  token_type: z.literal("session"),
  expires_at: when("When the session token expires (24 h)."),
  user: userOutput,
});

/** `POST /v1/auth/tokens`: the only answer that contains the token string. */
export const createdTokenOutput = z.object({
  id: z.string().meta({ example: "tok_01jd2x8k3f0m6q1v9w4r7t5y2z" }),
  name: z.string(),
  token: jwt,
  token_type: z.literal("api"),
  permissions: z.array(scopeSchema),
  expires_at: when("When the token expires."),
  created_at: when("When the token was created."),
});

/** `GET /v1/auth/verify` */
export const tokenInfoOutput = z.object({
  valid: z.literal(true),
  token_type: tokenType,
  permissions: z.array(scopeSchema),
  expires_at: when("When the token expires."),
  created_at: when("When the token was created."),
});

/** `POST /v1/auth/refresh` */
export const refreshOutput = z.object({
  token: jwt,
  token_type: tokenType,
  permissions: z.array(scopeSchema),
  expires_at: when("When the new token expires."),
  created_at: when("When the new token was created."),
});

export const refreshInput = z.object({});
