import "server-only";
import { createTransport, type Transporter } from "nodemailer";
import { getEnv } from "@/lib/platform/env";

let transport: { url: string; transporter: Transporter } | undefined;

/**
 * Sends one plain-text email through SMTP_URL. False when mail is not configured or the
 * server refused it: callers then show the link for the administrator to pass on.
 */
export async function sendMail({ to, subject, text }: { to: string; subject: string; text: string }): Promise<boolean> {
  const { SMTP_URL, SMTP_FROM, APP_URL } = getEnv();
  if (!SMTP_URL) return false;
  if (transport?.url !== SMTP_URL) transport = { url: SMTP_URL, transporter: createTransport(SMTP_URL) };
  try {
    await transport.transporter.sendMail({ from: SMTP_FROM ?? `Chorus <no-reply@${new URL(APP_URL).hostname}>`, to, subject, text });
    return true;
  } catch (error) {
    // The address and the message stay out of the log; the SMTP error code says enough.
    console.warn("email not sent:", (error as { code?: string }).code ?? "smtp_error");
    return false;
  }
}
