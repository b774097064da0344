import type { ContactDetailOutput } from "@/lib/contacts/schemas";

/** A contact as GET /v1/contacts answers it. */
export type ContactDetail = ContactDetailOutput;
