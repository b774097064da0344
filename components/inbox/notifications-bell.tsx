"use client";

import dynamic from "next/dynamic";
import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import { type ApiResult, requestJson } from "@/lib/client/api";
import { useLiveEventListener } from "./live-bus";
import type { NoteItem, NotificationItem } from "./team-types";
import type { Teammate } from "./types";

export type DesktopState = "on" | "off" | "blocked" | "unsupported";

type Page = { data: NotificationItem[]; pagination: { next_cursor: string | null; has_more: boolean }; unread_count: number };

const DESKTOP_KEY = "chorus:desktop-notifications:mentions";

// The list is shown only after a tap on the bell: it is fetched then (or when a pointer or the
// focus reaches the bell), not with the inbox.
const loadPanel = () => import("./notifications-panel");
const NotificationsPanel = dynamic(() => loadPanel().then((module) => module.NotificationsPanel), { ssr: false });

const fetchNotifications = () => requestJson<Page>("GET", "/v1/notifications?limit=20");

function desktopState(): DesktopState {
  if (typeof Notification === "undefined") return "unsupported";
  if (Notification.permission === "denied") return "blocked";
  return desktopAllowed() ? "on" : "off";
}

function desktopAllowed() {
  return typeof Notification !== "undefined" && Notification.permission === "granted" && localStorage.getItem(DESKTOP_KEY) === "on";
}

/**
 * The bell: my notifications (mentions in notes), live. A new mention also shows a desktop
 * notification when I turned them on here and the browser allows it.
 */
export function NotificationsBell({ me, onOpen, onRead }: { me: Teammate; onOpen: (conversationId: string) => void; onRead?: () => void }) {
  const router = useRouter();
  const t = useTranslations("inbox.bell");
  const b = useTranslations("inboxTools.bell");
  const [open, setOpen] = useState(false);
  const [items, setItems] = useState<NotificationItem[]>([]);
  const [unread, setUnread] = useState(0);
  const [state, setState] = useState<"loading" | "idle" | "error">("loading");
  const [desktop, setDesktop] = useState<DesktopState>("off");
  const panel = useRef<HTMLDivElement>(null);

  const apply = useCallback((result: ApiResult<Page>) => {
    if (!result.ok) {
      setState("error");
      return;
    }
    setItems(result.data.data);
    setUnread(result.data.unread_count);
    setState("idle");
  }, []);
  const load = useCallback(async () => apply(await fetchNotifications()), [apply]);

  useEffect(() => {
    let current = true;
    void fetchNotifications().then((result) => {
      if (!current) return;
      apply(result);
      setDesktop(desktopState());
    });
    return () => {
      current = false;
    };
  }, [apply]);

  useLiveEventListener((event) => {
    if (event.type !== "note.created") return;
    const note = (event.data as { note?: NoteItem }).note;
    if (!note || note.author.id === me.id || !note.mentions.includes(me.id)) return;
    void load();
    if (desktopAllowed()) {
      const shown = new Notification(b("desktopTitle", { name: note.author.name }), { body: note.text.slice(0, 140), tag: note.id });
      shown.onclick = () => {
        window.focus();
        onOpen(note.conversation_id);
      };
    }
  });

  // Closes on a click outside or Escape.
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => panel.current && !panel.current.contains(e.target as Node) && setOpen(false);
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && setOpen(false);
    document.addEventListener("mousedown", onDown);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("mousedown", onDown);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);

  async function markRead(body: { ids: string[] } | { all: true }) {
    const result = await requestJson<{ unread_count: number }>("POST", "/v1/notifications/read", body);
    if (!result.ok) return;
    setUnread(result.data.unread_count);
    onRead?.();
    const now = new Date().toISOString();
    setItems((list) => list.map((n) => ("all" in body || body.ids.includes(n.id) ? { ...n, read_at: n.read_at ?? now } : n)));
  }

  async function toggleDesktop() {
    if (desktop === "on") {
      localStorage.setItem(DESKTOP_KEY, "off");
      setDesktop("off");
      return;
    }
    const permission = await Notification.requestPermission();
    if (permission === "granted") {
      localStorage.setItem(DESKTOP_KEY, "on");
      setDesktop("on");
    } else setDesktop(permission === "denied" ? "blocked" : "off");
  }

  return (
    <div className="relative" ref={panel}>
      <button
        type="button"
        onPointerEnter={() => void loadPanel()}
        onFocus={() => void loadPanel()}
        onClick={() => setOpen((o) => !o)}
        aria-expanded={open}
        aria-haspopup="dialog"
        aria-label={unread ? t("labelUnread", { count: unread }) : t("label")}
        data-testid="notifications-bell"
        className="relative grid h-8 w-8 place-items-center max-md:h-11 max-md:w-11 rounded-md text-slate-700 hover:bg-slate-100"
      >
        <svg aria-hidden viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
          <path d="M6 8a6 6 0 1 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
          <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
        </svg>
        {unread ? (
          <span data-testid="notifications-unread" className="absolute -right-1 -top-1 min-w-4 rounded-full bg-red-600 px-1 text-center text-[10px] font-semibold leading-4 text-white">
            {unread > 99 ? "99+" : unread}
          </span>
        ) : null}
      </button>
      {open ? (
        <NotificationsPanel
          items={items}
          unread={unread}
          state={state}
          desktop={desktop}
          onMarkRead={(body) => void markRead(body)}
          onRetry={() => void load()}
          onToggleDesktop={() => void toggleDesktop()}
          onPick={(n) => {
            setOpen(false);
            if (!n.read_at) void markRead({ ids: [n.id] });
            if (n.conversation_id) onOpen(n.conversation_id);
            else router.push("/settings/number");
          }}
        />
      ) : null}
    </div>
  );
}
