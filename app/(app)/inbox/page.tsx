import { requireSession } from "@/lib/auth/current-user";

export const metadata = { title: "Inbox" };

export default async function InboxPage() {
  const session = await requireSession();
  return (
    <main className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-xl font-semibold">Inbox</h1>
      <p className="mt-2 text-slate-600">Welcome, {session.user.name}. Conversations with your customers will appear here.</p>
    </main>
  );
}
