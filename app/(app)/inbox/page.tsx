import { InboxPage } from "@/components/inbox/inbox-page";

export const metadata = { title: "Inbox" };

export default function Page() {
  return <InboxPage />;
}
