"use client";

import dynamic from "next/dynamic";
import { useTranslations } from "next-intl";
import { DialogButton } from "@/components/ui/dialog-button";

// The form is fetched when first wanted, not with the inbox.
const loadDialog = () => import("./simulate-customer-dialog");
const SimulateCustomerDialog = dynamic(() => loadDialog().then((module) => module.SimulateCustomerDialog), { ssr: false });

/** Sandbox only: lets an administrator play a customer writing to the number. */
export function SimulateCustomer({ onSent }: { onSent: (conversationId: string | undefined) => void }) {
  const t = useTranslations("inbox.simulate");
  return (
    <DialogButton
      label={t("buttonLabel")}
      title={t("buttonTitle")}
      text={t("button")}
      preload={loadDialog}
      dialog={(opened) => <SimulateCustomerDialog opened={opened} onSent={onSent} />}
    />
  );
}
