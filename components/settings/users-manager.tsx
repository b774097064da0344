"use client";

import { useState, useTransition } from "react";
import { changeRoleAction, inviteUserAction, removeUserAction } from "@/app/(app)/settings/users/actions";
import { Button } from "@/components/ui/button";
import { useConfirm } from "@/components/ui/confirm-dialog";
import { Alert, Card } from "@/components/ui/card";
import { Field } from "@/components/ui/field";

type User = { id: string; name: string; email: string; role: "admin" | "agent"; created_at: string };

export function UsersManager({ users, currentUserId }: { users: User[]; currentUserId: string }) {
  const [pending, startTransition] = useTransition();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<{ tone: "error" | "success"; text: string }>();
  const [busy, setBusy] = useState<string>();
  const [confirm, confirmDialog] = useConfirm();

  function onInvite(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    startTransition(async () => {
      setErrors({});
      setNotice(undefined);
      const result = await inviteUserAction(data);
      if (result.ok) {
        form.reset();
        setNotice({ tone: "success", text: `${result.data.name} can now sign in with the password you set.` });
      } else {
        setErrors(result.fieldErrors);
        if (!Object.keys(result.fieldErrors).length) setNotice({ tone: "error", text: result.message });
      }
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
                <p className="truncate text-sm text-slate-500">{user.email}</p>
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
        <h2 className="text-base font-semibold">Add a teammate</h2>
        <p className="mt-1 text-sm text-slate-600">Set an initial password and share it with them; they sign in at /login.</p>
        <form onSubmit={onInvite} className="mt-4 grid gap-4 sm:grid-cols-2" noValidate>
          <Field label="Name" name="name" required error={errors.name} />
          <Field label="Email" name="email" type="email" required error={errors.email} />
          <div className="flex flex-col gap-1">
            <label htmlFor="invite-role" className="text-sm font-medium text-slate-700">
              Role
            </label>
            <select id="invite-role" name="role" defaultValue="agent" className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm">
              <option value="agent">Agent</option>
              <option value="admin">Administrator</option>
            </select>
            {errors.role ? <p className="text-xs text-red-600">{errors.role}</p> : null}
          </div>
          <Field label="Initial password" name="password" type="password" required minLength={10} hint="At least 10 characters." error={errors.password} autoComplete="new-password" />
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
