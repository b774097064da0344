import { getTranslations } from "next-intl/server";
import { ContactsBrowser } from "@/components/contacts/contacts-browser";

export async function generateMetadata() {
  return { title: (await getTranslations("contacts"))("title") };
}

export default function ContactsPage() {
  return (
    <main className="mx-auto h-full max-w-5xl overflow-y-auto px-4 py-6">
      <ContactsBrowser />
    </main>
  );
}
