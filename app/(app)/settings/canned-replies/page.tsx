import { CannedRepliesManager } from "@/components/settings/canned-replies-manager";
import { PageHeader } from "@/components/ui/page-header";
import { collectPages } from "@/lib/platform/pagination";
import { requireSession } from "@/lib/auth/current-user";
import { listCannedReplies } from "@/lib/canned-replies/canned-replies";

export const metadata = { title: "Canned replies" };

export default async function CannedRepliesPage() {
  const session = await requireSession();
  const replies = await collectPages((cursor) => listCannedReplies({ ctx: session, limit: 100, cursor }));
  return (
    <>
      <PageHeader
        title="Canned replies"
        description={
          <>
            Answers your team sends often. In a reply, type <kbd className="rounded bg-slate-100 px-1">/</kbd> and the shortcut to insert one.{" "}
            <code>{"{{contact.name}}"}</code>, <code>{"{{agent.name}}"}</code> and <code>{"{{business.name}}"}</code> are filled in when inserted.
          </>
        }
      />
      <CannedRepliesManager replies={replies} canEdit={session.user.role === "admin"} />
    </>
  );
}
