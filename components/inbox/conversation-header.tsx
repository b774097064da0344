"use client";

import { useTranslations } from "next-intl";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { useApiErrorMessage } from "@/components/i18n/use-api-error";
import { SlaBadge } from "@/components/team/sla-badge";
import { Button } from "@/components/ui/button";
import { requestJson } from "@/lib/client/api";
import { Avatar } from "./conversation-list";
import { LabelChips } from "./label-chips";
import { LabelPicker } from "./label-picker";
import { SnoozeMenu } from "./snooze-menu";
import { contactAddressLabel, type ConversationItem, displayName, type Teammate } from "./types";

const statusTone: Record<ConversationItem["status"], string> = {
  open: "bg-sky-100 text-sky-800",
  assigned: "bg-brand-100 text-brand-700",
  closed: "bg-slate-200 text-slate-700",
  snoozed: "bg-violet-100 text-violet-800",
};

// Keys of the `inbox.header` catalog namespace.
const statusLabel: Record<ConversationItem["status"], string> = { open: "status.open", assigned: "status.assigned", closed: "status.closed", snoozed: "status.snoozed" };

/**
 * The conversation header. On a desktop: the contact, its status and assignee, and every action
 * in a row. On a phone it is one row — back, name, status chip and a `⋯` menu — and the same
 * actions open from that menu, one per line, so none runs off the screen.
 *
 * `actions` is the slot for more controls (priority, macros…): they join the row on a desktop and
 * the `⋯` menu on a phone, with no change here.
 */
export function ConversationHeader({
  conversation,
  me,
  people,
  onConversation,
  onBack,
  onDetails,
  onError,
  actions,
}: {
  conversation: ConversationItem;
  me: Teammate;
  people: Map<string, Teammate>;
  onConversation: (c: ConversationItem) => void;
  onBack: () => void;
  onDetails: () => void;
  onError: (message: string | undefined) => void;
  actions?: ReactNode;
}) {
  const t = useTranslations("inbox.header");
  const errorMessage = useApiErrorMessage();
  const [acting, setActing] = useState<string>();
  const [menuOpen, setMenuOpen] = useState(false);
  const menu = useRef<HTMLDivElement>(null);

  // The phone menu closes on Escape (focus back on ⋯) and on a press outside it; a menu of its
  // own (Labels, Snooze) opened from it counts as inside.
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape" || document.querySelector('[role="dialog"]:not([data-conversation-menu])')) return;
      setMenuOpen(false);
      menu.current?.querySelector<HTMLElement>("[data-menu-trigger]")?.focus();
    };
    const onDown = (e: PointerEvent) => {
      if (menu.current && !menu.current.contains(e.target as Node)) setMenuOpen(false);
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onDown);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onDown);
    };
  }, [menuOpen]);

  const changed = (c: ConversationItem) => {
    setMenuOpen(false);
    onConversation(c);
  };

  async function act(action: "assign" | "unassign" | "close" | "reopen", body?: Record<string, unknown>) {
    setActing(action);
    onError(undefined);
    const result = await requestJson<ConversationItem>("POST", `/v1/conversations/${conversation.id}/${action}`, body ?? {});
    setActing(undefined);
    if (result.ok) changed(result.data);
    else onError(errorMessage(result));
  }

  const name = displayName(conversation.contact);
  const assignee = conversation.assigned_to ? people.get(conversation.assigned_to) : undefined;
  const assigneeText = assignee
    ? assignee.id === me.id
      ? t("assignedToYou")
      : t.rich("assignedTo", { name: assignee.name, person: (chunks) => <span data-user-content>{chunks}</span> })
    : null;
  const teammates = [...people.values()].filter((p) => p.id !== conversation.assigned_to).sort((a, b) => a.name.localeCompare(b.name));

  return (
    <header className="relative flex items-center gap-2 border-b border-slate-200 px-2 py-1.5 md:flex-wrap md:gap-y-1.5 md:px-3 md:py-2" data-testid="conversation-header">
      <Button type="button" variant="ghost" className="min-h-11 min-w-11 shrink-0 px-2 md:hidden" onClick={onBack} aria-label={t("back")}>
        ←
      </Button>
      <Avatar name={name} className="h-9 w-9 shrink-0 text-sm max-md:hidden" />
      <div className="min-w-0 flex-1 md:min-w-48">
        <div className="flex min-w-0 items-center gap-2">
          <h2 className="min-w-0 truncate font-semibold" data-user-content>
            {name}
          </h2>
          <span data-testid="conversation-status" className={`shrink-0 rounded-full px-2 py-0.5 text-xs font-medium ${statusTone[conversation.status]}`}>
            {t(statusLabel[conversation.status])}
          </span>
          <SlaBadge sla={conversation.sla} />
        </div>
        <p className="flex items-center gap-2 truncate text-xs text-slate-500 max-md:hidden">
          <span translate="no">{contactAddressLabel(conversation.contact)}</span>
          {assigneeText ? <span data-testid="conversation-assignee">{assigneeText}</span> : null}
        </p>
        <LabelChips labels={conversation.labels} className="mt-1 max-md:hidden" />
      </div>
      <div ref={menu} className="shrink-0 md:ms-auto">
        <Button
          type="button"
          variant="ghost"
          data-menu-trigger
          className="min-h-11 min-w-11 px-2 text-lg leading-none md:hidden"
          aria-label={t("actions")}
          aria-expanded={menuOpen}
          aria-controls={`conversation-actions-${conversation.id}`}
          onClick={() => setMenuOpen((open) => !open)}
        >
          ⋯
        </Button>
        <div
          id={`conversation-actions-${conversation.id}`}
          data-conversation-menu
          role={menuOpen ? "dialog" : undefined}
          aria-label={menuOpen ? t("actions") : undefined}
          className={`${menuOpen ? "max-md:flex" : "max-md:hidden"} max-md:absolute max-md:inset-x-2 max-md:top-full max-md:z-20 max-md:mt-1 max-md:max-h-[70vh] max-md:flex-col max-md:gap-2 max-md:overflow-y-auto max-md:rounded-lg max-md:border max-md:border-slate-200 max-md:bg-white max-md:p-3 max-md:shadow-lg md:flex md:flex-wrap md:items-center md:gap-2 [&_button]:whitespace-nowrap max-md:[&_button]:min-h-11 max-md:[&_button]:w-full max-md:[&_select]:min-h-11 max-md:[&_select]:w-full`}
        >
          {/* Only in the open phone menu: what the one-row header leaves out. */}
          {menuOpen ? (
            <div className="flex flex-col gap-1 border-b border-slate-100 pb-2 text-xs text-slate-600 md:hidden">
              <span translate="no">{contactAddressLabel(conversation.contact)}</span>
              {assigneeText ? <span>{assigneeText}</span> : null}
              <LabelChips labels={conversation.labels} />
            </div>
          ) : null}
          {conversation.status === "closed" ? (
            <Button type="button" variant="secondary" onClick={() => act("reopen")} disabled={Boolean(acting)}>
              {acting === "reopen" ? t("reopening") : t("reopen")}
            </Button>
          ) : (
            <>
              {conversation.assigned_to !== me.id ? (
                <Button type="button" variant="secondary" onClick={() => act("assign", { user_id: me.id })} disabled={Boolean(acting)}>
                  {acting === "assign" ? t("assigning") : t("assignToMe")}
                </Button>
              ) : null}
              <label className="sr-only" htmlFor="assign-to">
                {t("assignToTeammate")}
              </label>
              <select
                id="assign-to"
                value=""
                disabled={Boolean(acting)}
                onChange={(e) => e.target.value && act("assign", { user_id: e.target.value })}
                className="rounded-md border border-slate-300 bg-white px-2 py-2 text-sm"
              >
                <option value="">{t("assignTo")}</option>
                {teammates.map((person) => (
                  <option key={person.id} value={person.id} data-user-content>
                    {person.name}
                  </option>
                ))}
              </select>
              {conversation.assigned_to ? (
                <Button type="button" variant="secondary" onClick={() => act("unassign")} disabled={Boolean(acting)}>
                  {acting === "unassign" ? t("unassigning") : t("unassign")}
                </Button>
              ) : null}
              <Button type="button" variant="secondary" onClick={() => act("close")} disabled={Boolean(acting)}>
                {acting === "close" ? t("closing") : t("close")}
              </Button>
            </>
          )}
          <LabelPicker conversation={conversation} onConversation={changed} />
          <SnoozeMenu conversation={conversation} onConversation={changed} />
          {actions}
          <Button
            type="button"
            variant="ghost"
            className="lg:hidden"
            onClick={() => {
              setMenuOpen(false);
              onDetails();
            }}
          >
            {t("details")}
          </Button>
        </div>
      </div>
    </header>
  );
}
