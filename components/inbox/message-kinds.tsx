import { useTranslations } from "next-intl";
import { useCallback } from "react";
import { MapPinIcon } from "@/components/ui/icons";
import type { MessageItem } from "./types";

// How the kinds beyond text and media look in a bubble.

const mapUrl = ({ latitude, longitude }: { latitude: number; longitude: number }) =>
  `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=16/${latitude}/${longitude}`;

function LocationCard({ location }: { location: NonNullable<MessageItem["location"]> }) {
  const t = useTranslations("inboxTools.kinds");
  const coordinates = `${location.latitude.toFixed(5)}, ${location.longitude.toFixed(5)}`;
  return (
    <a
      href={mapUrl(location)}
      target="_blank"
      rel="noopener noreferrer"
      className="block w-64 max-w-full overflow-hidden rounded-md border border-slate-200 bg-white/80 hover:bg-white"
      data-testid="location-card"
    >
      {/* A drawn map tile stand-in: no third-party request until someone opens the map. */}
      <span aria-hidden className="relative block h-24 bg-[linear-gradient(90deg,#e2e8f0_1px,transparent_1px),linear-gradient(#e2e8f0_1px,transparent_1px)] bg-[size:16px_16px] bg-emerald-50">
        <MapPinIcon className="absolute left-1/2 top-1/2 h-8 w-8 -translate-x-1/2 -translate-y-full text-red-600 drop-shadow" />
      </span>
      <span className="block px-3 py-2">
        <span className="block truncate font-medium" data-user-content={location.name ? "" : undefined}>
          {location.name || t("sharedLocation")}
        </span>
        {location.address ? (
          <span className="block truncate text-xs text-slate-600" data-user-content>
            {location.address}
          </span>
        ) : null}
        <span className="block text-xs text-slate-500">{coordinates}</span>
        <span className="mt-1 block text-xs font-semibold text-brand-700">{t("openInMap")}</span>
      </span>
    </a>
  );
}

function ContactCards({ cards }: { cards: NonNullable<MessageItem["contacts"]> }) {
  const t = useTranslations("inboxTools.kinds");
  return (
    <ul className="flex flex-col gap-1.5" aria-label={t("sharedContacts")}>
      {cards.map((card, index) => (
        <li key={index} className="flex items-start gap-2 rounded-md border border-slate-200 bg-white/80 px-3 py-2" data-testid="contact-card">
          <span aria-hidden className="grid h-8 w-8 shrink-0 place-items-center rounded-full bg-slate-200 text-sm font-semibold text-slate-700">
            {card.name.slice(0, 1).toUpperCase()}
          </span>
          <span className="min-w-0" data-user-content>
            <span className="block truncate font-medium">{card.name}</span>
            {card.phones.map((phone) => (
              <a key={phone} href={`tel:${phone.replace(/[^\d+]/g, "")}`} className="block truncate text-xs text-brand-700 underline">
                {phone}
              </a>
            ))}
            {card.emails?.map((email) => (
              <a key={email} href={`mailto:${email}`} className="block truncate text-xs text-slate-600 underline">
                {email}
              </a>
            ))}
          </span>
        </li>
      ))}
    </ul>
  );
}

type InteractiveContent = NonNullable<MessageItem["interactive"]>;
type InteractiveSent = Exclude<InteractiveContent, { title: string }>;

function Interactive({ interactive: content }: { interactive: InteractiveContent }) {
  const t = useTranslations("inboxTools.kinds");
  if ("title" in content) {
    const interactive = content;
    return (
      <p className="flex items-center gap-1.5" data-testid="interactive-reply">
        <span aria-hidden>↩︎</span>
        <span className="font-medium" data-user-content>
          {interactive.title}
        </span>
        <span className="text-xs text-slate-500">{interactive.type === "button_reply" ? t("buttonReply") : t("listChoice")}</span>
      </p>
    );
  }
  const interactive = content as InteractiveSent;
  const options: { id: string; title: string }[] =
    interactive.type === "button"
      ? interactive.buttons
      : interactive.type === "flow"
        ? [{ id: "flow", title: interactive.cta }]
        : (interactive.sections ?? []).flatMap((section) => section.rows);
  return (
    <div data-testid="interactive-message">
      <p className="whitespace-pre-wrap break-words" data-user-content>
        {interactive.body}
      </p>
      {interactive.footer ? (
        <p className="mt-0.5 text-xs text-slate-500" data-user-content>
          {interactive.footer}
        </p>
      ) : null}
      <ul className="mt-2 flex flex-col gap-1">
        {options.map((option) => (
          <li key={option.id} className="rounded-md border border-brand-200 bg-white/80 px-3 py-1 text-center text-xs font-medium text-brand-700" data-user-content>
            {option.title}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** "delivery_date" → "Delivery date": a flow's field name as a label. */
function fieldLabel(name: string): string {
  const words = name.replace(/[_-]+/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2").trim();
  return words ? words[0].toUpperCase() + words.slice(1) : name;
}

function fieldValue(value: unknown, yesNo: { yes: string; no: string }): string {
  if (value === null || value === undefined) return "—";
  if (typeof value === "boolean") return value ? yesNo.yes : yesNo.no;
  if (Array.isArray(value)) return value.map((item) => fieldValue(item, yesNo)).join(", ");
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** A customer's answers to a flow as a small form (label: value); the correlation token is not shown. */
function FlowAnswers({ response }: { response: NonNullable<MessageItem["flow_response"]> }) {
  const t = useTranslations("inboxTools.kinds");
  const fields = Object.entries(response.data).filter(([name]) => name !== "flow_token");
  return (
    <div data-testid="flow-response">
      <p className="mb-1 text-xs font-semibold text-slate-600">{t("formAnswers")}</p>
      {fields.length === 0 ? (
        <p className="text-xs italic text-slate-500">{t("noAnswers")}</p>
      ) : (
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5">
          {fields.map(([name, value]) => (
            <div key={name} className="contents" data-user-content>
              <dt className="text-xs text-slate-500">{fieldLabel(name)}:</dt>
              <dd className="break-words font-medium">{fieldValue(value, { yes: t("yes"), no: t("no") })}</dd>
            </div>
          ))}
        </dl>
      )}
    </div>
  );
}

/** A template's header as the customer sees it: bold text, the picture, video or document, or the place. */
function TemplateHeader({ message }: { message: MessageItem }) {
  const t = useTranslations("inboxTools.kinds");
  const header = message.template?.header;
  if (!header) return null;
  const url = `/v1/messages/${message.id}/media`;
  const label = message.media?.filename ?? header.format.toLowerCase();
  switch (header.format) {
    case "TEXT":
      return header.text ? <p className="mb-1 font-semibold" data-testid="template-header" data-user-content>
          {header.text}
        </p> : null;
    case "LOCATION":
      return header.location ? <LocationCard location={header.location} /> : null;
    case "IMAGE":
      // eslint-disable-next-line @next/next/no-img-element
      return message.media ? <img src={url} alt={label} loading="lazy" className="mb-1 max-h-72 rounded-md object-contain" data-testid="template-header" /> : null;
    case "VIDEO":
      return message.media ? <video controls src={url} className="mb-1 max-h-72 max-w-full rounded-md" aria-label={label} data-testid="template-header" /> : null;
    case "DOCUMENT":
      return message.media ? (
        <a href={url} download={message.media.filename ?? undefined} className="mb-1 block truncate rounded-md border border-slate-200 bg-white/70 px-3 py-2 font-medium" data-testid="template-header">
          {t("document", { name: label })}
        </a>
      ) : null;
  }
}

/** A template's footer and buttons, under its body, as the customer sees them. */
export function TemplateExtras({ template }: { template: NonNullable<MessageItem["template"]> }) {
  const t = useTranslations("inboxTools.kinds");
  if (!template.footer && !template.buttons?.length) return null;
  return (
    <div data-testid="template-extras">
      {template.footer ? (
        <p className="mt-0.5 text-xs text-slate-500" data-user-content>
          {template.footer}
        </p>
      ) : null}
      {template.buttons?.length ? (
        <ul className="mt-2 flex flex-col gap-1" aria-label={t("templateButtons")}>
          {template.buttons.map((button) => (
            <li key={button.index} className="rounded-md border border-brand-200 bg-white/80 px-3 py-1 text-center text-xs font-medium text-brand-700" title={button.url ?? button.phone_number ?? button.value} data-user-content>
              {button.type === "URL" ? "↗ " : button.type === "PHONE_NUMBER" ? "☎ " : ""}
              {button.text}
              {button.type === "COPY_CODE" && button.value ? <span className="ml-1 font-mono text-slate-600">{button.value}</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** The content of a message of a kind beyond text and media, or null for those. */
export function KindContent({ message }: { message: MessageItem }) {
  const t = useTranslations("inboxTools.kinds");
  const q = useTranslations("inboxTools.quote");
  switch (message.type) {
    case "location":
      return message.location ? <LocationCard location={message.location} /> : null;
    case "contacts":
      return message.contacts ? <ContactCards cards={message.contacts} /> : null;
    case "sticker":
      return message.media ? (
        // eslint-disable-next-line @next/next/no-img-element
        <img src={`/v1/messages/${message.id}/media`} alt={q("type.sticker")} loading="lazy" className="h-32 w-32 object-contain" data-testid="sticker" />
      ) : null;
    case "interactive":
      if (message.flow_response) return <FlowAnswers response={message.flow_response} />;
      return message.interactive ? <Interactive interactive={message.interactive} /> : null;
    case "button":
      return message.button ? (
        <p className="flex items-center gap-1.5" data-testid="button-reply">
          <span aria-hidden>↩︎</span>
          <span className="font-medium" data-user-content>
            {message.button.text}
          </span>
          <span className="text-xs text-slate-500">{t("quickReply")}</span>
        </p>
      ) : null;
    case "template":
      return message.template ? (
        <>
          <p className="mb-1 inline-block rounded bg-white/70 px-1.5 py-0.5 text-[11px] font-medium text-slate-600" data-testid="template-tag">
            {t("templateTag", { name: message.template.name })}
          </p>
          <TemplateHeader message={message} />
        </>
      ) : null;
    case "unsupported":
      return (
        <p className="italic text-slate-600" data-testid="unsupported">
          {t("unsupported", { type: message.unsupported?.network_type ?? t("unknown") })}
        </p>
      );
    default:
      return null;
  }
}

/** One line for a quoted message, in the reader's language: a hook, since its words come from the catalogs. */
export function useQuoteLine() {
  const t = useTranslations("inboxTools.quote");
  const kinds = useTranslations("inboxTools.kinds");
  return useCallback(
    (message: MessageItem): string => {
      if (message.deleted_at) return t("deleted");
      if (message.text) return message.text;
      if (message.media?.caption) return message.media.caption;
      switch (message.type) {
        case "location":
          return `📍 ${message.location?.name || t("location")}`;
        case "contacts":
          return `👤 ${message.contacts?.[0]?.name ?? t("contact")}`;
        case "sticker":
          return t("type.sticker");
        case "interactive":
          if (message.flow_response) return kinds("formAnswers");
          return message.interactive && "title" in message.interactive ? message.interactive.title : (message.interactive?.body ?? t("interactive"));
        case "button":
          return message.button?.text ?? t("button");
        case "unsupported":
          return kinds("unsupported", { type: message.unsupported?.network_type ?? kinds("unknown") });
        case "text":
          return t("type.text");
        case "image":
          return t("type.image");
        case "document":
          return t("type.document");
        case "audio":
          return t("type.audio");
        case "video":
          return t("type.video");
        case "reaction":
          return t("type.reaction");
        case "template":
          return t("type.template");
      }
    },
    [t, kinds],
  );
}

/** Reactions under a bubble, grouped by emoji. */
export function Reactions({ reactions }: { reactions: NonNullable<MessageItem["reactions"]> }) {
  const t = useTranslations("inboxTools.kinds");
  const groups = new Map<string, number>();
  for (const reaction of reactions) groups.set(reaction.emoji, (groups.get(reaction.emoji) ?? 0) + 1);
  return (
    <ul className="-mb-1 mt-1 flex flex-wrap gap-1" aria-label={t("reactions")} data-testid="reactions">
      {[...groups].map(([emoji, count]) => (
        <li key={emoji} className="rounded-full bg-white px-1.5 py-0.5 text-xs shadow-sm ring-1 ring-slate-200">
          {emoji}
          {count > 1 ? <span className="ml-0.5 text-slate-600">{count}</span> : null}
        </li>
      ))}
    </ul>
  );
}
