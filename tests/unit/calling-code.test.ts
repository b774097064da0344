import { parsePhoneNumberFromString } from "libphonenumber-js";
import metadata from "libphonenumber-js/metadata.min.json";
import { describe, expect, it } from "vitest";
import { callingCodeOf } from "@/lib/pricing/country";

describe("the calling code of a number (pricing), without the phone number library in the browser", () => {
  it("is the one libphonenumber-js reads, for every code it knows and every E.164 length", () => {
    const codes = [...new Set([...Object.keys(metadata.country_calling_codes), ...Object.keys(metadata.nonGeographic ?? {})])];
    let seed = 7;
    const digit = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) % 10;
    const differ: string[] = [];
    for (const code of codes) {
      for (let length = code.length; length <= 15; length++) {
        let number = code;
        while (number.length < length) number += String(digit());
        const expected = parsePhoneNumberFromString(`+${number}`)?.countryCallingCode ?? null;
        if (callingCodeOf(number) !== expected) differ.push(`${number}: ${callingCodeOf(number)} ≠ ${expected}`);
      }
    }
    expect(differ).toEqual([]);
    expect(callingCodeOf("34911234567")).toBe("34");
    expect(callingCodeOf("+1 415 555 2671")).toBe("1");
    expect(callingCodeOf("")).toBeNull();
    expect(callingCodeOf("999123456")).toBeNull();
  });
});
