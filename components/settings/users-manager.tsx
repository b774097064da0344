"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { useApiErrorMessage } from "@/components/i18n/use-api-error";
import { useAppFormat } from "@/components/i18n/use-app-format";
import {
  changeRoleAction,
  inviteUserAction,
  issueResetLinkAction,
  removeUserAction,
  removeUserMfaAction,
  resendInvitationAction,
  revokeInvitationAction,
  sendInvitationAction,
  setMfaRequirementAction,
} from "@/app/(app)/settings/users/actions";
import { Button } from "@/components/ui/button";
import { useConfirm } from "@/components/ui/confirm-dialog";
import { Alert, Card } from "@/components/ui/card";
import { Field, NewPasswordField } from "@/components/ui/field";
import { SecretField } from "@/components/ui/secret-field";
import { useFormAction } from "@/components/ui/use-form-action";
import type { UserOutput } from "@/lib/auth/user-identity";
import type { PendingInvitationOutput } from "@/lib/users/invitations";

type User = Pick<UserOutput, "id" | "name" | "email" | "role" | "created_at">;

/** A secret link to pass on once (invitation or password reset), with its copy button. */
function LinkNotice({ title, url, expiresAt, emailed }: { title: string; url: string; expiresAt: string; emailed?: boolean }) {
  const t = useTranslations("settingsUsers.link");
  const format = useAppFormat();
  return (
    <Card className="border-brand-200 bg-brand-50">
      <p role="status" className="text-sm font-medium text-slate-900">
        {title}
      </p>
      <p className="mt-1 text-sm text-slate-600">
        {t(emailed ? "emailed" : "copyIt", { date: format.dateTime(expiresAt) })}
      </p>
      <div className="mt-3">
        <SecretField label={t("label")} value={url} copyLabel={t("copy")} />
      </div>
    </Card>
  );
}

/** The role a new teammate gets (agent unless chosen otherwise). */
function RoleSelect({ id }: { id: string }) {
  const t = useTranslations("settingsUsers.role");
  return (
    <select id={id} name="role" defaultValue="agent" className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm">
      <option value="agent">{t("agent")}</option>
      <option value="admin">{t("admin")}</option>
    </select>
  );
}

export function UsersManager({
  users,
  currentUserId,
  mfaUserIds = [],
  requireMfa = false,
  invitations = [],
}: {
  users: User[];
  currentUserId: string;
  mfaUserIds?: string[];
  requireMfa?: boolean;
  invitations?: PendingInvitationOutput[];
}) {
  const t = useTranslations("settingsUsers");
  const errorMessage = useApiErrorMessage();
  const format = useAppFormat();
  const [inviteErrors, setInviteErrors] = useState<Record<string, string>>({});
  const [link, setLink] = useState<{ title: string; url: string; expiresAt: string; emailed?: boolean }>();
  const [inviting, setInviting] = useState(false);
  const [notice, setNotice] = useState<{ tone: "error" | "success"; text: string }>();
  const invite = useFormAction(inviteUserAction, {
    onSuccess: (user, form) => {
      form.reset();
      setNotice({ tone: "success", text: t("added", { name: user.name }) });
    },
    onMessage: (text) => setNotice(text === undefined ? undefined : { tone: "error", text }),
  });
  const { pending, startTransition, errors } = invite;
  const [busy, setBusy] = useState<string>();
  const [confirm, confirmDialog] = useConfirm();

  function onSendInvitation(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    setInviting(true);
    startTransition(async () => {
      setInviteErrors({});
      setNotice(undefined);
      setLink(undefined);
      const result = await sendInvitationAction(data);
      setInviting(false);
      if (result.ok) {
        form.reset();
        setLink({ title: t("link.invitation", { email: result.data.email }), url: result.data.url, expiresAt: result.data.expires_at, emailed: result.data.email_sent });
      } else {
        setInviteErrors(result.fieldErrors);
        if (!Object.keys(result.fieldErrors).length) setNotice({ tone: "error", text: errorMessage(result) });
      }
    });
  }

  function resetLink(user: User) {
    setBusy(user.id);
    startTransition(async () => {
      setLink(undefined);
      const result = await issueResetLinkAction(user.id);
      setBusy(undefined);
      if (result.ok) setLink({ title: t("link.reset", { name: user.name }), url: result.data.url, expiresAt: result.data.expires_at });
      else setNotice({ tone: "error", text: errorMessage(result) });
    });
  }

  function run(id: string, work: () => Promise<{ ok: true } | { ok: false; status: number; code: string }>) {
    setBusy(id);
    startTransition(async () => {
      const result = await work();
      setNotice(result.ok ? undefined : { tone: "error", text: errorMessage(result) });
      setBusy(undefined);
    });
  }

  return (
    <div className="flex flex-col gap-6">
      {confirmDialog}
      {notice ? <Alert tone={notice.tone}>{notice.text}</Alert> : null}
      {link ? <LinkNotice {...link} /> : null}
      <Card>
        <h2 className="text-base font-semibold">{t("invite.title")}</h2>
        <p className="mt-1 text-sm text-slate-600">{t("invite.description")}</p>
        <form onSubmit={onSendInvitation} className="mt-4 flex flex-col gap-4 sm:flex-row sm:items-start" noValidate>
          <Field
            label={t("invite.to")}
            name="email"
            type="email"
            required
            placeholder={t("invite.placeholder")}
            error={inviteErrors.email}
            className="sm:flex-1"
            id="invitation-email"
          />
          <div className="flex flex-col gap-1">
            <label htmlFor="invitation-role" className="text-sm font-medium text-slate-700">
              {t("role.label")}
            </label>
            <RoleSelect id="invitation-role" />
          </div>
          <Button type="submit" disabled={inviting} aria-busy={inviting} className="sm:mt-6">
            {inviting ? t("invite.inviting") : t("invite.invite")}
          </Button>
        </form>
      </Card>
      {invitations.length ? (
        <Card className="p-0">
          <h2 className="px-6 pt-6 text-base font-semibold">{t("pending.title")}</h2>
          <ul className="mt-3 divide-y divide-slate-100 border-t border-slate-100" aria-label={t("pending.title")}>
            {invitations.map((invitation) => (
              <li key={invitation.id} className="flex flex-wrap items-center gap-3 px-6 py-3">
                <div className="min-w-0 flex-1">
                  <p className="truncate font-medium" data-user-content>
                    {invitation.email}
                  </p>
                  <p className="text-sm text-slate-500">
                    {invitation.role === "admin" ? t("role.admin") : t("role.agent")} ·{" "}
                    {invitation.status === "expired" ? (
                      <span className="text-amber-700">{t("pending.expired", { date: format.dateTime(invitation.expires_at) })}</span>
                    ) : (
                      <>{t("pending.validUntil", { date: format.dateTime(invitation.expires_at) })}</>
                    )}
                    {invitation.invited_by ? t("pending.invitedBy", { name: invitation.invited_by.name }) : null}
                  </p>
                </div>
                <Button
                  type="button"
                  variant="secondary"
                  disabled={busy === invitation.id}
                  aria-label={t("pending.resendFor", { email: invitation.email })}
                  onClick={() => {
                    setBusy(invitation.id);
                    startTransition(async () => {
                      setLink(undefined);
                      const result = await resendInvitationAction(invitation.id);
                      setBusy(undefined);
                      if (result.ok) {
                        setNotice(undefined);
                        setLink({ title: t("link.newInvitation", { email: result.data.email }), url: result.data.url, expiresAt: result.data.expires_at, emailed: result.data.email_sent });
                      } else setNotice({ tone: "error", text: errorMessage(result) });
                    });
                  }}
                >
                  {t("pending.resend")}
                </Button>
                <Button
                  type="button"
                  variant="secondary"
                  disabled={busy === invitation.id}
                  aria-label={t("pending.revokeFor", { email: invitation.email })}
                  onClick={async () => {
                    const confirmed = await confirm({
                      title: t("pending.confirmTitle", { email: invitation.email }),
                      body: t("pending.confirmBody"),
                      confirmLabel: t("pending.confirmAction"),
                      tone: "danger",
                    });
                    if (confirmed) run(invitation.id, () => revokeInvitationAction(invitation.id));
                  }}
                >
                  {t("pending.revoke")}
                </Button>
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
      <Card className="p-0">
        <ul className="divide-y divide-slate-100" aria-label={t("list")}>
          {users.map((user) => (
            <li key={user.id} className="flex flex-wrap items-center gap-3 px-6 py-3">
              <span aria-hidden className="grid h-9 w-9 place-items-center rounded-full bg-brand-100 text-sm font-semibold text-brand-700">
                {user.name.slice(0, 1).toUpperCase()}
              </span>
              <div className="min-w-0 flex-1">
                <p className="truncate font-medium">
                  <span data-user-content>{user.name}</span> {user.id === currentUserId ? <span className="text-xs text-slate-500">{t("you")}</span> : null}
                </p>
                <p className="truncate text-sm text-slate-500">
                  <span data-user-content>{user.email}</span>
                  {mfaUserIds.includes(user.id) ? <span className="ms-2 rounded bg-emerald-50 px-1.5 py-0.5 text-xs text-emerald-700">{t("mfaOn")}</span> : null}
                </p>
              </div>
              <label className="sr-only" htmlFor={`role-${user.id}`}>
                {t("role.of", { name: user.name })}
              </label>
              <select
                id={`role-${user.id}`}
                value={user.role}
                disabled={busy === user.id}
                onChange={(e) => run(user.id, () => changeRoleAction(user.id, e.target.value))}
                className="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm"
              >
                <option value="admin">{t("role.admin")}</option>
                <option value="agent">{t("role.agent")}</option>
              </select>
              <Button type="button" variant="secondary" disabled={busy === user.id} aria-label={t("resetFor", { name: user.name })} onClick={() => resetLink(user)}>
                {t("resetLink")}
              </Button>
              {mfaUserIds.includes(user.id) && user.id !== currentUserId ? (
                <Button
                  type="button"
                  variant="ghost"
                  disabled={busy === user.id}
                  aria-label={t("mfaOff.for", { name: user.name })}
                  onClick={async () => {
                    const confirmed = await confirm({
                      title: t("mfaOff.confirmTitle", { name: user.name }),
                      body: t("mfaOff.confirmBody"),
                      confirmLabel: t("mfaOff.confirmAction"),
                      tone: "danger",
                    });
                    if (confirmed) run(user.id, () => removeUserMfaAction(user.id));
                  }}
                >
                  {t("mfaOff.confirmAction")}
                </Button>
              ) : null}
              <Button
                type="button"
                variant="secondary"
                disabled={busy === user.id}
                aria-label={t("remove.for", { name: user.name })}
                onClick={async () => {
                  const confirmed = await confirm({
                    title: t("remove.confirmTitle", { name: user.name }),
                    body: t("remove.confirmBody"),
                    confirmLabel: t("remove.confirmAction"),
                  });
                  if (confirmed) run(user.id, () => removeUserAction(user.id));
                }}
              >
                {busy === user.id ? t("remove.working") : t("remove.remove")}
              </Button>
            </li>
          ))}
        </ul>
      </Card>
      <Card>
        <h2 className="text-base font-semibold">{t("mfa.title")}</h2>
        <label className="mt-3 flex items-start gap-3 text-sm">
          <input
            type="checkbox"
            className="mt-0.5 h-4 w-4"
            checked={requireMfa}
            disabled={busy === "require-mfa"}
            onChange={(e) => {
              const required = e.target.checked;
              run("require-mfa", () => setMfaRequirementAction(required));
            }}
          />
          <span>
            <span className="font-medium text-slate-800">{t("mfa.require")}</span>
            <span className="block text-slate-600">{t("mfa.requireHint")}</span>
          </span>
        </label>
      </Card>
      <Card>
        <h2 className="text-base font-semibold">{t("add.title")}</h2>
        <p className="mt-1 text-sm text-slate-600">{t("add.description")}</p>
        <form onSubmit={invite.onSubmit} className="mt-4 grid gap-4 sm:grid-cols-2" noValidate>
          <Field label={t("add.name")} name="name" required error={errors.name} />
          <Field label={t("add.email")} name="email" type="email" required error={errors.email} />
          <div className="flex flex-col gap-1">
            <label htmlFor="invite-role" className="text-sm font-medium text-slate-700">
              {t("role.label")}
            </label>
            <RoleSelect id="invite-role" />
            {errors.role ? <p className="text-xs text-red-600">{errors.role}</p> : null}
          </div>
          <NewPasswordField label={t("add.password")} name="password" error={errors.password} />
          <div className="sm:col-span-2">
            <Button type="submit" disabled={pending} aria-busy={pending}>
              {pending ? t("add.adding") : t("add.add")}
            </Button>
          </div>
        </form>
      </Card>
    </div>
  );
}
