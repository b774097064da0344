import { notFound } from "next/navigation";
import { InboxPage } from "@/components/inbox/inbox-page";

export const metadata = { title: "Inbox" };

// A conversation's own address: reload, a shared link and Back all open it.
export default async function ConversationPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!/^conv_[0-9a-z]{26}$/.test(id)) notFound();
  return <InboxPage conversationId={id} />;
}
