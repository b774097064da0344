"use server";

import { z } from "zod";
import { revokeAllOwnApiTokens } from "@/lib/auth/api-tokens";
import { confirmMfaEnrolment, disableMfa, startMfaEnrolment } from "@/lib/auth/mfa";
import { revokeAuthorizedApp } from "@/lib/oauth/grants";
import { action, formInput, formText, recordId } from "@/lib/server/action";
import { changePassword, changePasswordInput } from "@/lib/users/passwords";

const page = "/settings/account";
/** A six-digit code from the authenticator app (the verb says when it is wrong). */
const code = z.string();

export const changePasswordAction = action({ schema: formInput(changePasswordInput, (form) => formText(form, "current_password", "new_password")) }, async (input, ctx) => {
  await changePassword({ ctx, input });
});

// Setting up two-factor sign-in is open to a user whom the account makes set it up first.
export const startMfaAction = action({ allowEnrolment: true }, (_, ctx) => startMfaEnrolment({ ctx }));

export const confirmMfaAction = action({ allowEnrolment: true, schema: code, revalidate: { layout: "/" } }, (code, ctx) =>
  confirmMfaEnrolment({ ctx, code, sessionId: ctx.token.id }),
);

export const disableMfaAction = action({ schema: code, revalidate: page }, async (code, ctx) => {
  await disableMfa({ ctx, userId: ctx.user.id, code });
});

export const revokeAppAction = action({ schema: recordId, revalidate: page }, async (grantId, ctx) => {
  await revokeAuthorizedApp({ ctx, grantId });
});

export const revokeAllTokensAction = action({ revalidate: page }, async (_, ctx) => ({ revoked: await revokeAllOwnApiTokens({ ctx }) }));
