"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { PolishMenu } from "@/components/inbox/polish-menu";
import { Card } from "@/components/ui/card";

/** A sample reply to polish, so the team can see what the three styles make of the profile. */
export function PolishPlayground() {
  const t = useTranslations("settingsProfile.polish");
  const [text, setText] = useState("hola q tal, tu pedido #4521 sale mañana xq ayer no llego el camion. cualquier cosa me dices");
  return (
    <Card>
      <h2 className="text-base font-semibold">{t("title")}</h2>
      <p className="mt-1 text-sm text-slate-600">{t("hint")}</p>
      <div className="mt-4 flex flex-col gap-2">
        <label htmlFor="polish-sample" className="text-sm font-medium text-slate-700">
          {t("sample")}
        </label>
        <textarea
          id="polish-sample"
          value={text}
          onChange={(event) => setText(event.target.value)}
          rows={4}
          maxLength={4096}
          className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm"
        />
        <div className="flex justify-end">
          <PolishMenu text={text} onApply={setText} />
        </div>
      </div>
    </Card>
  );
}
