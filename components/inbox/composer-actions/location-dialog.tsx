"use client";

import { useTranslations } from "next-intl";
import { Field } from "@/components/ui/field";
import { MapPinIcon } from "@/components/ui/icons";
import type { ConversationItem, MessageItem } from "../types";
import { DialogShell, useSendDialog } from "./dialog-shell";

/** "Send location": a place by its coordinates, with an optional name and address. */
export function LocationDialog({ conversation, onQueued }: { conversation: ConversationItem; onQueued: (message: MessageItem) => void }) {
  const t = useTranslations("inbox.kinds");
  const d = useTranslations("inboxDialogs.location");
  const { dialog, errors, send, shell } = useSendDialog();

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? "").trim();
    const number = (name: string) => (text(name) === "" ? Number.NaN : Number(text(name)));
    const location = {
      latitude: number("latitude"),
      longitude: number("longitude"),
      ...(text("name") ? { name: text("name") } : {}),
      ...(text("address") ? { address: text("address") } : {}),
    };
    const local: Record<string, string> = {};
    if (!Number.isFinite(location.latitude) || Math.abs(location.latitude) > 90) local["location.latitude"] = d("latitudeError");
    if (!Number.isFinite(location.longitude) || Math.abs(location.longitude) > 180) local["location.longitude"] = d("longitudeError");
    const message = await send(local, () => ({ conversation_id: conversation.id, type: "location", location }));
    if (!message) return;
    onQueued(message);
    event.currentTarget?.reset();
    dialog.current?.close();
  }

  return (
    <>
      <button type="button" className="rounded-md px-2 py-1 text-xs font-medium text-slate-700 hover:bg-slate-100" onClick={() => dialog.current?.showModal()}>
        <MapPinIcon className="me-1 inline h-3.5 w-3.5" />
        {t("location")}
      </button>
      <DialogShell id="send-location" title={d("title")} description={d("description")} submitLabel={d("submit")} {...shell} onSubmit={onSubmit}>
        <div className="grid grid-cols-2 gap-3">
          <Field id="location-latitude" label={d("latitude")} name="latitude" inputMode="decimal" placeholder="52.52" required error={errors["location.latitude"]} />
          <Field id="location-longitude" label={d("longitude")} name="longitude" inputMode="decimal" placeholder="13.405" required error={errors["location.longitude"]} />
        </div>
        <Field id="location-name" label={d("name")} name="name" maxLength={1000} error={errors["location.name"]} />
        <Field id="location-address" label={d("address")} name="address" maxLength={1000} error={errors["location.address"]} />
      </DialogShell>
    </>
  );
}
