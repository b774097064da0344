import { ContactsBrowser } from "@/components/contacts/contacts-browser";

export const metadata = { title: "Contacts" };

export default function ContactsPage() {
  return (
    <main className="mx-auto h-full max-w-5xl overflow-y-auto px-4 py-6">
      <ContactsBrowser />
    </main>
  );
}
