// A path whose `%`-escapes do not decode (`/v1/contacts/%`, `/v1/conversations/%E0%A4%A`) cannot
// be routed: the proxy sends it to the API's own answer for it (a 400 with the error body, the
// request id and the rate budget), or to the app's 400 page.

/** True when some `%`-escape of the path is not a valid escape of UTF-8 text. */
export function hasMalformedEscape(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    return true;
  }
}

export const MALFORMED_PATH_MESSAGE = "path: contains a malformed percent-escape";
export const MALFORMED_PATH_DETAIL = { path: "path", message: "contains a malformed percent-escape" };

/** The address each API answers a malformed path at (its catch-all route); other addresses get the 400 page. */
const API_REFUSALS: [prefix: string, target: string][] = [
  ["/v1", "/v1/--malformed-path--"],
  ["/plant-store", "/plant-store/--malformed-path--"],
];

/** Where a malformed path is routed instead: the API's refusal, or undefined outside the APIs. */
export function malformedPathTarget(pathname: string): string | undefined {
  return API_REFUSALS.find(([prefix]) => pathname === prefix || pathname.startsWith(`${prefix}/`))?.[1];
}

/** True for the address a malformed path was routed to. */
export const isMalformedPathTarget = (pathname: string) => API_REFUSALS.some(([, target]) => target === pathname);

/** The page shown (with status 400) for a page address with a malformed escape. */
export const BAD_REQUEST_PAGE = "/bad-request";
