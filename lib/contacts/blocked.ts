import { ApiError } from "@/lib/platform/errors";

/** A send to a blocked contact is refused (its transaction then writes nothing). */
export function refuseBlockedContact(contact: { blocked?: boolean }) {
  if (contact.blocked) throw new ApiError(409, "contact_blocked", "This contact is blocked. Unblock them on their contact page to send a message.");
}
