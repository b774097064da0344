// A path whose `%`-escapes do not decode (`/v1/contacts/%`, `/v1/conversations/%E0%A4%A`) cannot
// be routed (routing decodes it): the proxy hands it to one route that answers for the API it was
// sent to (a 400 with that API's error body, the request id and the rate budget), or to the
// app's 400 page.

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

/** The route that answers for an API address that cannot be decoded; the header names the API. */
export const MALFORMED_PATH_ROUTE = "/api/malformed-path";
export const MALFORMED_PATH_HEADER = "x-chorus-malformed-path";

export type MalformedPathApi = "v1" | "plant-store";

/** The API an address belongs to, for the answer's error body; undefined for other addresses. */
export function apiOfPath(pathname: string): MalformedPathApi | undefined {
  if (pathname === "/v1" || pathname.startsWith("/v1/")) return "v1";
  if (pathname === "/plant-store" || pathname.startsWith("/plant-store/")) return "plant-store";
  return undefined;
}

/** The page shown (with status 400) for a page address with a malformed escape. */
export const BAD_REQUEST_PAGE = "/bad-request";
