import { z } from "zod";
import type { OauthApp } from "@/db/schema";
import { isoTimestamp, prefixedId } from "@/lib/platform/fields";
import { type Scope, scopeSchema } from "@/lib/auth/scopes";
import { redirectUriProblem } from "./parameters";

const redirectUri = z
  .string()
  .trim()
  .max(2000, "must be at most 2000 characters")
  .superRefine((value, ctx) => {
    const problem = redirectUriProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .meta({ example: "https://app.example.com/oauth/callback" });

export const createAppInput = z.object({
  name: z.string().trim().min(1, "is required").max(100, "must be at most 100 characters").meta({ example: "Acme CRM" }),
  redirect_uris: z
    .array(redirectUri, { error: "must be a list of URLs" })
    .min(1, "must name at least one URL")
    .max(10, "must name at most 10 URLs")
    .transform((list) => [...new Set(list)])
    .meta({ description: "Where users are sent back after consent: https, or http://localhost… (any port) for native and development apps. Matched exactly." }),
  allowed_scopes: z
    .array(scopeSchema, { error: "must be a list of scopes" })
    .min(1, "must name at least one scope")
    .transform((list) => [...new Set(list)])
    .meta({ description: "The scopes the app may ask users for." }),
  client_type: z
    .enum(["confidential", "public"])
    .default("confidential")
    .meta({ description: "`confidential` (a server that keeps a client secret) or `public` (a browser or mobile app: PKCE only, no secret). Default `confidential`." }),
});
export type CreateAppInput = z.infer<typeof createAppInput>;

const appShape = {
  id: prefixedId("app"),
  name: z.string(),
  redirect_uris: z.array(z.string()),
  allowed_scopes: z.array(scopeSchema),
  client_id: z.string().meta({ example: "chorus_4f1c2b9e8d7a6b5c4d3e2f1a" }),
  client_type: z.enum(["confidential", "public"]),
  created_at: isoTimestamp(),
};

export const appOutput = z.strictObject(appShape).meta({ id: "OAuthApp", description: "A third-party app that may ask users for access (OAuth 2.0 with PKCE)." });
export type AppOutput = z.infer<typeof appOutput>;

/** `POST /v1/apps`: the only answer that carries the client secret. */
export const createdAppOutput = z
  .strictObject({
    ...appShape,
    client_secret: z
      .string()
      .nullable()
      .meta({ description: "Shown only here, for a confidential client (null for a public one). Store it in the app's server.", example: "chorus_secret_vX2..." }),
  })
  .meta({ id: "CreatedOAuthApp" });

export function presentApp(row: OauthApp): AppOutput {
  return {
    id: row.id,
    name: row.name,
    redirect_uris: row.redirectUris,
    allowed_scopes: row.allowedScopes as Scope[],
    client_id: row.clientId,
    client_type: row.clientType,
    created_at: row.createdAt.toISOString(),
  };
}
