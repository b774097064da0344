"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { useApiErrorMessage } from "@/components/i18n/use-api-error";
import { requestJson } from "@/lib/client/api";

type Availability = "online" | "busy" | "offline" | "away";

const choices: { value: Exclude<Availability, "away">; label: string; dot: string }[] = [
  { value: "online", label: "availability.online", dot: "bg-green-500" },
  { value: "busy", label: "availability.busy", dot: "bg-amber-500" },
  { value: "offline", label: "availability.offline", dot: "bg-slate-400" },
];

/**
 * The account menu's availability switch. Only `online` people receive conversations
 * automatically; `away` is what `online` reads as after a while without activity, and choosing
 * Online again (any activity, really) ends it.
 */
export function AvailabilitySwitch({ initial }: { initial: Availability }) {
  const t = useTranslations("teamControls");
  const errorMessage = useApiErrorMessage();
  const [value, setValue] = useState<Availability>(initial);
  const [error, setError] = useState<string>();

  async function choose(next: Exclude<Availability, "away">) {
    const previous = value;
    setValue(next);
    setError(undefined);
    const result = await requestJson<{ availability: Availability }>("PUT", "/v1/users/me/availability", { availability: next });
    if (result.ok) setValue(result.data.availability);
    else {
      setValue(previous);
      setError(errorMessage(result));
    }
  }

  return (
    <div className="px-2 py-1">
      <p id="availability-label" className="text-xs font-medium text-slate-500">
        {value === "away" ? t("availability.away") : t("availability.label")}
      </p>
      <div role="radiogroup" aria-labelledby="availability-label" className="mt-1 grid grid-cols-3 gap-1">
        {choices.map((choice) => {
          const checked = value === choice.value || (value === "away" && choice.value === "online");
          return (
            <button
              key={choice.value}
              type="button"
              role="radio"
              aria-checked={checked}
              onClick={() => void choose(choice.value)}
              className={`flex min-h-11 cursor-pointer items-center justify-center gap-1.5 rounded-md border px-1 text-xs font-medium sm:min-h-9 ${
                checked ? "border-slate-800 bg-slate-800 text-white" : "border-slate-200 text-slate-700 hover:bg-slate-50"
              }`}
            >
              <span aria-hidden className={`h-2 w-2 rounded-full ${choice.dot}`} />
              {t(choice.label)}
            </button>
          );
        })}
      </div>
      {error ? <p className="mt-1 text-xs text-red-700">{error}</p> : null}
    </div>
  );
}
