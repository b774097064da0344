import { parsePhoneNumberFromString } from "libphonenumber-js";

/** The country calling code of a number of digits (E.164 without +), e.g. "34" for 34911234567; null when it cannot be told. */
export function callingCodeOf(digits: string | null | undefined): string | null {
  if (!digits) return null;
  const parsed = parsePhoneNumberFromString(`+${digits.replace(/\D/g, "")}`);
  return parsed?.countryCallingCode ?? null;
}
