"use client";

import { useTranslations } from "next-intl";
import { useAppFormat } from "@/components/i18n/use-app-format";
import type { DesktopState } from "./notifications-bell";
import type { NotificationItem } from "./team-types";
import { displayName } from "./types";

/** The bell's list: my notifications, newest first, and the switch for desktop notifications. */
export function NotificationsPanel({
  items,
  unread,
  state,
  desktop,
  onMarkRead,
  onRetry,
  onToggleDesktop,
  onPick,
}: {
  items: NotificationItem[];
  unread: number;
  state: "loading" | "idle" | "error";
  desktop: DesktopState;
  onMarkRead: (body: { all: true }) => void;
  onRetry: () => void;
  onToggleDesktop: () => void;
  onPick: (notification: NotificationItem) => void;
}) {
  const b = useTranslations("inboxTools.bell");
  const format = useAppFormat();
  return (
    <div
      role="dialog"
      aria-label={b("title")}
      className="fixed inset-x-2 top-28 z-30 max-h-[70vh] overflow-hidden rounded-lg border border-slate-200 bg-white shadow-xl sm:absolute sm:inset-x-auto sm:right-0 sm:top-full sm:mt-2 sm:w-80"
    >
      <div className="flex items-center gap-2 border-b border-slate-200 px-3 py-2">
        <h2 className="text-sm font-semibold">{b("title")}</h2>
        {unread ? (
          <button type="button" className="ml-auto text-xs text-brand-700 underline" onClick={() => onMarkRead({ all: true })}>
            {b("markAllRead")}
          </button>
        ) : null}
      </div>
      <ul className="max-h-[50vh] overflow-y-auto" aria-busy={state === "loading"}>
        {state === "error" ? (
          <li role="alert" className="p-3 text-sm text-red-700">
            {b("loadError")}{" "}
            <button type="button" className="underline" onClick={onRetry}>
              {b("retry")}
            </button>
          </li>
        ) : null}
        {state === "idle" && items.length === 0 ? <li className="p-4 text-center text-sm text-slate-500">{b("empty")}</li> : null}
        {items.map((n) => (
          <li key={n.id}>
            <button
              type="button"
              data-testid="notification-item"
              onClick={() => onPick(n)}
              className={`flex w-full flex-col gap-0.5 border-b border-slate-100 px-3 py-2 text-left hover:bg-slate-50 ${n.read_at ? "" : "bg-amber-50"}`}
            >
              <span className="flex items-baseline gap-2 text-sm">
                {n.read_at ? null : <span aria-label={b("unread")} className="h-2 w-2 shrink-0 rounded-full bg-red-600" />}
                <span className="min-w-0 flex-1 truncate">
                  {n.type === "sla_warning" || n.type === "sla_breached" ? (
                    <>
                      <strong>{n.type === "sla_warning" ? b("slaWarning") : b("slaBreached")}</strong>
                      {n.contact ? <span data-user-content>{` · ${displayName(n.contact)}`}</span> : null}
                    </>
                  ) : n.type === "number_health" || !n.contact ? (
                    <strong>{b("numberHealth")}</strong>
                  ) : (
                    b.rich("mentioned", {
                      name: n.actor?.name ?? b("someone"),
                      contact: displayName(n.contact),
                      strong: (chunks) => <strong>{chunks}</strong>,
                    })
                  )}
                </span>
                <time className="shrink-0 text-xs text-slate-500" dateTime={n.created_at}>
                  {format.relative(n.created_at)}
                </time>
              </span>
              {n.text ? (
                <span className="line-clamp-2 text-xs text-slate-600" data-user-content>
                  {n.text}
                </span>
              ) : null}
            </button>
          </li>
        ))}
      </ul>
      <div className="border-t border-slate-200 px-3 py-2 text-xs text-slate-600">
        {desktop === "unsupported" ? (
          b("desktopUnsupported")
        ) : desktop === "blocked" ? (
          b("desktopBlocked")
        ) : (
          <label className="flex items-center gap-2">
            <input type="checkbox" checked={desktop === "on"} onChange={onToggleDesktop} />
            {b("desktopToggle")}
          </label>
        )}
      </div>
    </div>
  );
}
