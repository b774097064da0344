"use client";

import dynamic from "next/dynamic";
import { useTranslations } from "next-intl";
import { DialogButton } from "@/components/ui/dialog-button";
import { useHydrated } from "@/components/ui/hooks";

// The form and its template picker are fetched when first wanted (a pointer over the button, focus,
// a tap), not with the inbox: a phone's first load carries the button only.
const loadDialog = () => import("./new-conversation-dialog");
const NewConversationDialog = dynamic(() => loadDialog().then((module) => module.NewConversationDialog), { ssr: false });

/** "New conversation": reach a customer first, by number, with an approved template. */
export function NewConversation({ onStarted }: { onStarted: (conversationId: string) => void }) {
  const t = useTranslations("inbox.newConversation");
  const hydrated = useHydrated();
  return (
    <DialogButton
      label={t("title")}
      title={t("title")}
      // The list's header is narrow on every screen: one short word keeps it on one line.
      text={t("button")}
      disabled={!hydrated}
      preload={loadDialog}
      dialog={(opened) => <NewConversationDialog opened={opened} onStarted={onStarted} />}
    />
  );
}
