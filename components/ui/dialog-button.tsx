"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";

/**
 * A small header button that opens a dialog whose code is fetched when first wanted (a pointer
 * over the button, focus, a tap), not with the page. `dialog` gets how many times it was asked
 * for: each one more opens it again.
 */
export function DialogButton({
  label,
  title,
  text,
  disabled,
  preload,
  dialog,
}: {
  label: string;
  title: string;
  text: string;
  disabled?: boolean;
  preload: () => unknown;
  dialog: (opened: number) => React.ReactNode;
}) {
  const [opened, setOpened] = useState(0);
  return (
    <>
      <Button
        type="button"
        variant="secondary"
        className="px-2.5 py-1.5 text-xs max-md:min-h-11 max-md:min-w-11"
        aria-label={label}
        title={title}
        disabled={disabled}
        onPointerEnter={() => void preload()}
        onFocus={() => void preload()}
        onClick={() => setOpened((count) => count + 1)}
      >
        {text}
      </Button>
      {opened ? dialog(opened) : null}
    </>
  );
}
