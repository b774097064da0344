import { getTranslations } from "next-intl/server";
import { InboxPage } from "@/components/inbox/inbox-page";

export async function generateMetadata() {
  return { title: (await getTranslations("inbox.list"))("title") };
}

export default function Page() {
  return <InboxPage />;
}
