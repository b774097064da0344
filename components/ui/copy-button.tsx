"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "./button";

/** `ariaLabel` tells several copy buttons on one page apart; it should start with the visible label. */
export function CopyButton({ value, label, ariaLabel, className }: { value: string; label?: string; ariaLabel?: string; className?: string }) {
  const t = useTranslations("forms");
  const [copied, setCopied] = useState(false);
  return (
    <Button
      type="button"
      variant="secondary"
      aria-label={ariaLabel}
      className={className}
      onClick={async () => {
        await navigator.clipboard?.writeText(value).catch(() => {});
        setCopied(true);
        setTimeout(() => setCopied(false), 2000);
      }}
    >
      <span aria-live="polite">{copied ? t("copied") : (label ?? t("copy"))}</span>
    </Button>
  );
}
