"use client";

import { useState } from "react";
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
import { formatDateTime } from "@/components/ui/format";
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
  return (
    <Card className="border-brand-200 bg-brand-50">
      <p role="status" className="text-sm font-medium text-slate-900">
        {title}
      </p>
      <p className="mt-1 text-sm text-slate-600">
        {emailed ? "We emailed this link. " : "Copy this link and send it to them yourself. "}It works once, until {formatDateTime(expiresAt)}, and is not shown again.
      </p>
      <div className="mt-3">
        <SecretField label="Link" value={url} copyLabel="Copy link" />
      </div>
    </Card>
  );
}

/** The role a new teammate gets (agent unless chosen otherwise). */
function RoleSelect({ id }: { id: string }) {
  return (
    <select id={id} name="role" defaultValue="agent" className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm">
      <option value="agent">Agent</option>
      <option value="admin">Administrator</option>
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
  const [inviteErrors, setInviteErrors] = useState<Record<string, string>>({});
  const [link, setLink] = useState<{ title: string; url: string; expiresAt: string; emailed?: boolean }>();
  const [inviting, setInviting] = useState(false);
  const [notice, setNotice] = useState<{ tone: "error" | "success"; text: string }>();
  const invite = useFormAction(inviteUserAction, {
    onSuccess: (user, form) => {
      form.reset();
      setNotice({ tone: "success", text: `${user.name} can now sign in with the password you set.` });
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
        setLink({ title: `Invitation for ${result.data.email}`, url: result.data.url, expiresAt: result.data.expires_at, emailed: result.data.email_sent });
      } else {
        setInviteErrors(result.fieldErrors);
        if (!Object.keys(result.fieldErrors).length) setNotice({ tone: "error", text: result.message });
      }
    });
  }

  function resetLink(user: User) {
    setBusy(user.id);
    startTransition(async () => {
      setLink(undefined);
      const result = await issueResetLinkAction(user.id);
      setBusy(undefined);
      if (result.ok) setLink({ title: `Password reset link for ${user.name}`, url: result.data.url, expiresAt: result.data.expires_at });
      else setNotice({ tone: "error", text: result.message });
    });
  }

  function run(id: string, work: () => Promise<{ ok: boolean; message?: string }>) {
    setBusy(id);
    startTransition(async () => {
      const result = await work();
      setNotice(result.ok ? undefined : { tone: "error", text: result.message ?? "That did not work." });
      setBusy(undefined);
    });
  }

  return (
    <div className="flex flex-col gap-6">
      {confirmDialog}
      {notice ? <Alert tone={notice.tone}>{notice.text}</Alert> : null}
      {link ? <LinkNotice {...link} /> : null}
      <Card>
        <h2 className="text-base font-semibold">Invite a teammate</h2>
        <p className="mt-1 text-sm text-slate-600">They get a link, valid for 7 days, to choose their name and password.</p>
        <form onSubmit={onSendInvitation} className="mt-4 flex flex-col gap-4 sm:flex-row sm:items-start" noValidate>
          <Field
            label="Send the invitation to"
            name="email"
            type="email"
            required
            placeholder="name@company.com"
            error={inviteErrors.email}
            className="sm:flex-1"
            id="invitation-email"
          />
          <div className="flex flex-col gap-1">
            <label htmlFor="invitation-role" className="text-sm font-medium text-slate-700">
              Role
            </label>
            <RoleSelect id="invitation-role" />
          </div>
          <Button type="submit" disabled={inviting} aria-busy={inviting} className="sm:mt-6">
            {inviting ? "Inviting…" : "Invite"}
          </Button>
        </form>
      </Card>
      {invitations.length ? (
        <Card className="p-0">
          <h2 className="px-6 pt-6 text-base font-semibold">Pending invitations</h2>
          <ul className="mt-3 divide-y divide-slate-100 border-t border-slate-100" aria-label="Pending invitations">
            {invitations.map((invitation) => (
              <li key={invitation.id} className="flex flex-wrap items-center gap-3 px-6 py-3">
                <div className="min-w-0 flex-1">
                  <p className="truncate font-medium">{invitation.email}</p>
                  <p className="text-sm text-slate-500">
                    {invitation.role === "admin" ? "Administrator" : "Agent"} ·{" "}
                    {invitation.status === "expired" ? (
                      <span className="text-amber-700">Expired {formatDateTime(invitation.expires_at)}</span>
                    ) : (
                      <>Link valid until {formatDateTime(invitation.expires_at)}</>
                    )}
                    {invitation.invited_by ? ` · invited by ${invitation.invited_by.name}` : null}
                  </p>
                </div>
                <Button
                  type="button"
                  variant="secondary"
                  disabled={busy === invitation.id}
                  aria-label={`Resend the invitation for ${invitation.email}`}
                  onClick={() => {
                    setBusy(invitation.id);
                    startTransition(async () => {
                      setLink(undefined);
                      const result = await resendInvitationAction(invitation.id);
                      setBusy(undefined);
                      if (result.ok) {
                        setNotice(undefined);
                        setLink({ title: `New invitation link for ${result.data.email}`, url: result.data.url, expiresAt: result.data.expires_at, emailed: result.data.email_sent });
                      } else setNotice({ tone: "error", text: result.message });
                    });
                  }}
                >
                  Resend
                </Button>
                <Button
                  type="button"
                  variant="secondary"
                  disabled={busy === invitation.id}
                  aria-label={`Revoke the invitation for ${invitation.email}`}
                  onClick={async () => {
                    const confirmed = await confirm({
                      title: `Revoke the invitation for ${invitation.email}?`,
                      body: "Its link stops working at once. You can invite them again later.",
                      confirmLabel: "Revoke invitation",
                      tone: "danger",
                    });
                    if (confirmed) run(invitation.id, () => revokeInvitationAction(invitation.id));
                  }}
                >
                  Revoke
                </Button>
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
      <Card className="p-0">
        <ul className="divide-y divide-slate-100" aria-label="Users">
          {users.map((user) => (
            <li key={user.id} className="flex flex-wrap items-center gap-3 px-6 py-3">
              <span aria-hidden className="grid h-9 w-9 place-items-center rounded-full bg-brand-100 text-sm font-semibold text-brand-700">
                {user.name.slice(0, 1).toUpperCase()}
              </span>
              <div className="min-w-0 flex-1">
                <p className="truncate font-medium">
                  {user.name} {user.id === currentUserId ? <span className="text-xs text-slate-500">(you)</span> : null}
                </p>
                <p className="truncate text-sm text-slate-500">
                  {user.email}
                  {mfaUserIds.includes(user.id) ? <span className="ml-2 rounded bg-emerald-50 px-1.5 py-0.5 text-xs text-emerald-700">2FA on</span> : null}
                </p>
              </div>
              <label className="sr-only" htmlFor={`role-${user.id}`}>
                Role of {user.name}
              </label>
              <select
                id={`role-${user.id}`}
                value={user.role}
                disabled={busy === user.id}
                onChange={(e) => run(user.id, () => changeRoleAction(user.id, e.target.value))}
                className="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm"
              >
                <option value="admin">Administrator</option>
                <option value="agent">Agent</option>
              </select>
              <Button type="button" variant="secondary" disabled={busy === user.id} aria-label={`Reset link for ${user.name}`} onClick={() => resetLink(user)}>
                Reset link
              </Button>
              {mfaUserIds.includes(user.id) && user.id !== currentUserId ? (
                <Button
                  type="button"
                  variant="ghost"
                  disabled={busy === user.id}
                  aria-label={`Turn off 2FA for ${user.name}`}
                  onClick={async () => {
                    const confirmed = await confirm({
                      title: `Turn off two-factor sign-in for ${user.name}?`,
                      body: "Do this when they lost their authenticator. They sign in with their password alone until they set it up again.",
                      confirmLabel: "Turn off 2FA",
                      tone: "danger",
                    });
                    if (confirmed) run(user.id, () => removeUserMfaAction(user.id));
                  }}
                >
                  Turn off 2FA
                </Button>
              ) : null}
              <Button
                type="button"
                variant="secondary"
                disabled={busy === user.id}
                aria-label={`Remove ${user.name}`}
                onClick={async () => {
                  const confirmed = await confirm({
                    title: `Remove ${user.name}?`,
                    body: "Their conversations go back to the unassigned queue; their messages stay attributed to them.",
                    confirmLabel: "Remove teammate",
                  });
                  if (confirmed) run(user.id, () => removeUserAction(user.id));
                }}
              >
                {busy === user.id ? "Working…" : "Remove"}
              </Button>
            </li>
          ))}
        </ul>
      </Card>
      <Card>
        <h2 className="text-base font-semibold">Two-factor sign-in</h2>
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
            <span className="font-medium text-slate-800">Require two-factor sign-in for everyone</span>
            <span className="block text-slate-600">Whoever has not set it up is asked to at their next visit, before anything else; until then their API tokens and apps are refused too. API tokens and apps set up without a code stay refused: they are created again after signing in with one.</span>
          </span>
        </label>
      </Card>
      <Card>
        <h2 className="text-base font-semibold">Add a teammate</h2>
        <p className="mt-1 text-sm text-slate-600">Set an initial password and share it with them; they sign in at /login.</p>
        <form onSubmit={invite.onSubmit} className="mt-4 grid gap-4 sm:grid-cols-2" noValidate>
          <Field label="Name" name="name" required error={errors.name} />
          <Field label="Email" name="email" type="email" required error={errors.email} />
          <div className="flex flex-col gap-1">
            <label htmlFor="invite-role" className="text-sm font-medium text-slate-700">
              Role
            </label>
            <RoleSelect id="invite-role" />
            {errors.role ? <p className="text-xs text-red-600">{errors.role}</p> : null}
          </div>
          <NewPasswordField label="Initial password" name="password" error={errors.password} />
          <div className="sm:col-span-2">
            <Button type="submit" disabled={pending} aria-busy={pending}>
              {pending ? "Adding…" : "Add user"}
            </Button>
          </div>
        </form>
      </Card>
    </div>
  );
}
