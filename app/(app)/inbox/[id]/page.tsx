import { getTranslations } from "next-intl/server";
import { notFound } from "next/navigation";
import { InboxPage } from "@/components/inbox/inbox-page";

export async function generateMetadata() {
  return { title: (await getTranslations("inbox.list"))("title") };
}

// A conversation's own address: reload, a shared link and Back all open it.
export default async function ConversationPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!/^conv_[0-9a-z]{26}$/.test(id)) notFound();
  return <InboxPage conversationId={id} />;
}
