"use client";

import dynamic from "next/dynamic";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/button";

// The form is fetched when first wanted, not with the inbox.
const loadDialog = () => import("./simulate-customer-dialog");
const SimulateCustomerDialog = dynamic(() => loadDialog().then((module) => module.SimulateCustomerDialog), { ssr: false });

/** Sandbox only: lets an administrator play a customer writing to the number. */
export function SimulateCustomer({ onSent }: { onSent: (conversationId: string | undefined) => void }) {
  const t = useTranslations("inbox.simulate");
  // How many times it was asked for: each one more opens the form again.
  const [opened, setOpened] = useState(0);
  return (
    <>
      <Button
        type="button"
        variant="secondary"
        className="px-2.5 py-1.5 text-xs max-md:min-h-11 max-md:min-w-11"
        aria-label={t("buttonLabel")}
        title={t("buttonTitle")}
        onPointerEnter={() => void loadDialog()}
        onFocus={() => void loadDialog()}
        onClick={() => setOpened((count) => count + 1)}
      >
        {t("button")}
      </Button>
      {opened ? <SimulateCustomerDialog opened={opened} onSent={onSent} /> : null}
    </>
  );
}
