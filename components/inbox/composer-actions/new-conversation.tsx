"use client";

import dynamic from "next/dynamic";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { useHydrated } from "@/components/ui/hooks";

// The form and its template picker are fetched when first wanted (a pointer over the button, focus,
// a tap), not with the inbox: a phone's first load carries the button only.
const loadDialog = () => import("./new-conversation-dialog");
const NewConversationDialog = dynamic(() => loadDialog().then((module) => module.NewConversationDialog), { ssr: false });

/** "New conversation": reach a customer first, by number, with an approved template. */
export function NewConversation({ onStarted }: { onStarted: (conversationId: string) => void }) {
  const t = useTranslations("inbox.newConversation");
  const hydrated = useHydrated();
  // How many times it was asked for: each one more opens the dialog again.
  const [opened, setOpened] = useState(0);
  return (
    <>
      <Button
        type="button"
        variant="secondary"
        className="px-2.5 py-1.5 text-xs max-md:min-h-11 max-md:min-w-11"
        aria-label={t("title")}
        title={t("title")}
        disabled={!hydrated}
        onPointerEnter={() => void loadDialog()}
        onFocus={() => void loadDialog()}
        onClick={() => setOpened((count) => count + 1)}
      >
        {/* The list's header is narrow on every screen: one short word keeps it on one line. */}
        {t("button")}
      </Button>
      {opened ? <NewConversationDialog opened={opened} onStarted={onStarted} /> : null}
    </>
  );
}
