import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as invitationsRoute from "@/app/v1/invitations/route";
import * as resendRoute from "@/app/v1/invitations/[id]/resend/route";
import * as meRoute from "@/app/v1/users/me/route";
import * as profileRoute from "@/app/v1/config/business-profile/route";
import { call } from "@/tests/support/api";
import { setEnv } from "@/tests/support/env-vars";
import { createTestAccount } from "@/tests/support/fixtures";
import { startSmtpReceiver } from "@/tests/support/smtp-receiver";

// The invitation email is written in the inviter's language (their own choice, else the business
// language): the invited person's language is unknown until they open the link.
describe("invitation emails speak the inviter's language", () => {
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let undoEnv: () => void;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    undoEnv = setEnv({ SMTP_URL: smtp.url, SMTP_FROM: "Chorus <no-reply@example.com>" });
  });
  afterAll(async () => {
    undoEnv();
    await smtp.close();
  });

  const invite = async (token: string, email: string, role: "admin" | "agent") => {
    const res = await call(invitationsRoute.POST, { method: "POST", path: "/v1/invitations", token, body: { email, role } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.email_sent).toBe(true);
    const mail = smtp.mails.find((m) => m.to.includes(email));
    expect(mail, "an email reached the SMTP server").toBeTruthy();
    return { res, mail: mail! };
  };

  it("an administrator who chose Spanish sends a Spanish invitation", async () => {
    const { account, admin, adminToken } = await createTestAccount("Vivero Sol");
    const me = await call(meRoute.PATCH, { method: "PATCH", path: "/v1/users/me", token: adminToken, body: { locale: "es" } });
    expect(me.status, me.text).toBe(200);
    const { res, mail } = await invite(adminToken, `lucia-${account.id}@example.com`, "agent");
    expect(mail.subject).toBe(`${admin.name} te invitó a Vivero Sol en Chorus`);
    expect(mail.text).toContain("como agente");
    expect(mail.text).toContain("Elige tu nombre y tu contraseña");
    expect(mail.text).toContain(res.body.url);
    expect(mail.text).not.toMatch(/invited|password/i);
  });

  it("with no choice of their own, the business language (Portuguese) writes it, on resend too", async () => {
    const { account, admin, adminToken } = await createTestAccount("Floricultura Ipê");
    const profile = await call(profileRoute.PUT, { method: "PUT", path: "/v1/config/business-profile", token: adminToken, body: {
        name: "Floricultura Ipê",
        description: "",
        language: "pt",
        hours: { timezone: "America/Sao_Paulo", weekly: {} },
        auto_reply: { outside_hours: { enabled: false, message: "" }, hours_question: { enabled: false } },
      },
    });
    expect(profile.status, profile.text).toBe(200);
    const email = `joao-${account.id}@example.com`;
    const { res, mail } = await invite(adminToken, email, "admin");
    expect(mail.subject).toBe(`${admin.name} convidou você para Floricultura Ipê no Chorus`);
    expect(mail.text).toContain("como administrador");
    expect(mail.text).toContain("Escolha seu nome e sua senha");
    expect(mail.text).toContain(res.body.url);

    smtp.mails.length = 0;
    const again = await call(resendRoute.POST, { method: "POST", path: `/v1/invitations/${res.body.id}/resend`, token: adminToken, params: { id: res.body.id } });
    expect(again.status, again.text).toBe(200);
    const resent = smtp.mails.find((m) => m.to.includes(email));
    expect(resent?.subject).toBe(`${admin.name} convidou você para Floricultura Ipê no Chorus`);
    expect(resent?.text).toContain(again.body.url);
  });

  it("an English administrator still sends English", async () => {
    const { account, adminToken } = await createTestAccount("Plant Co");
    const { mail } = await invite(adminToken, `sam-${account.id}@example.com`, "agent");
    expect(mail.subject).toMatch(/ invited you to Plant Co on Chorus$/);
    expect(mail.text).toContain("as an agent");
  });
});
