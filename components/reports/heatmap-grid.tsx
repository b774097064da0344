"use client";

import { useFormatter, useTranslations } from "next-intl";
import type { HeatmapOutput } from "@/lib/reports/schemas";

// A Monday (1 January 2024), from which each weekday's name is read in the reader's language.
const weekdayOffset = { mon: 0, tue: 1, wed: 2, thu: 3, fri: 4, sat: 5, sun: 6 } as const;
const weekdayDate = (weekday: string) => new Date(Date.UTC(2024, 0, 1 + (weekdayOffset[weekday as keyof typeof weekdayOffset] ?? 0), 12));

const hourLabel = (hour: number) => `${String(hour).padStart(2, "0")}:00`;

/** Inbound messages by weekday × hour: a table whose cells darken with the count. */
export function HeatmapGrid({ heatmap }: { heatmap: HeatmapOutput }) {
  const t = useTranslations("reports.heatmap");
  const format = useFormatter();
  const dayName = (weekday: string, width: "long" | "short") => format.dateTime(weekdayDate(weekday), { weekday: width, timeZone: "UTC" });
  const max = Math.max(1, ...heatmap.data.flatMap((row) => row.hours));
  return (
    // Relative: the screen-reader-only zeros are positioned within the scrolling box, never past the page's edge.
    // Focusable: at phone width it scrolls sideways, and the keyboard must reach it too.
    <div className="relative overflow-x-auto" tabIndex={0} role="region" aria-label={t("region")}>
      <table className="border-separate border-spacing-0.5 text-[10px]" aria-label={t("table")} data-testid="heatmap">
        <thead>
          <tr>
            <th scope="col" className="sr-only">
              {t("day")}
            </th>
            {Array.from({ length: 24 }, (_, hour) => (
              <th key={hour} scope="col" className="w-6 min-w-6 text-center font-normal text-slate-500" aria-label={hourLabel(hour)}>
                {hour % 3 === 0 ? String(hour).padStart(2, "0") : ""}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {heatmap.data.map((row) => (
            <tr key={row.weekday}>
              <th scope="row" className="pe-2 text-start text-xs font-medium text-slate-600">
                <abbr title={dayName(row.weekday, "long")} className="no-underline" translate="no">
                  {dayName(row.weekday, "short")}
                </abbr>
              </th>
              {row.hours.map((count, hour) => {
                const strength = count / max;
                return (
                  <td
                    key={hour}
                    title={t("cell", { day: dayName(row.weekday, "long"), hour: hourLabel(hour), count })}
                    data-cell={`${row.weekday}-${hour}`}
                    data-count={count}
                    className={`h-6 w-6 min-w-6 rounded-sm text-center tabular-nums ${strength > 0.55 ? "text-white" : "text-slate-700"}`}
                    style={{ backgroundColor: count === 0 ? "#f1f5f9" : `rgba(23, 128, 89, ${0.15 + 0.85 * strength})` }}
                  >
                    {count > 0 ? count : <span className="sr-only">0</span>}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
