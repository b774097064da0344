import { promises as dns } from "node:dns";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

type ResolvedAddress = { address: string; family: number };

export type LookupAll = (
  hostname: string,
  options: { all: true; verbatim: true },
) => Promise<ResolvedAddress[]>;

export type WebhookUrlCheck =
  | { ok: true; url: URL; address: string; family: 4 | 6 }
  // `unresolved`: the host name did not resolve (possibly a passing DNS fault), nothing was refused.
  | { ok: false; reason: string; unresolved?: true };

// 2000::/3 is the only IPv6 block IANA hands out as global unicast; everything outside it is
// either special-purpose or unassigned, so nothing legitimate can live there.
const globalUnicastV6 = ipaddr.IPv6.parseCIDR("2000::/3");

// IPv4-compatible addresses (deprecated) and the unspecified/loopback pair live here.
const ipv4CompatibleV6 = ipaddr.IPv6.parseCIDR("::/96");

function isPublicIPv4(address: ipaddr.IPv4): boolean {
  // ipaddr's table already covers 0/8, 10/8, 100.64/10, 127/8, 169.254/16, 172.16/12,
  // 192.0.0/24, 192.0.2/24, 192.168/16, 198.18/15, 198.51.100/24, 203.0.113/24, 224/4,
  // 240/4 and the broadcast address; anything it does not call "unicast" is refused.
  return address.range() === "unicast";
}

function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 {
  const [high, low] = address.parts.slice(6);
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

function isPublicIPv6(address: ipaddr.IPv6): boolean {
  if (address.match(ipv4CompatibleV6)) return false;
  const range = address.range();
  // Forms that carry an IPv4 address in their low 32 bits reach whatever that IPv4 reaches,
  // so they are exactly as public as the embedded address.
  if (range === "ipv4Mapped" || range === "rfc6145") return isPublicIPv4(embeddedIPv4(address));
  if (range === "rfc6052") {
    // 64:ff9b:1::/48 is for local NAT64 deployments only.
    if (address.parts[2] !== 0) return false;
    return isPublicIPv4(embeddedIPv4(address));
  }
  // 6to4 and Teredo are transition tunnels whose far end is decided by embedded IPv4 data;
  // no receiver needs to be reachable only through them, so they are refused outright.
  if (range !== "unicast") return false;
  return address.match(globalUnicastV6);
}

// ipaddr reads any dotted-quad tail as IPv4-mapped ("::8.8.8.8" becomes ::ffff:8.8.8.8), so
// the WHATWG URL parser, which keeps the bits as written, produces the hex form first. The
// zone index only names a local interface and does not change the address.
function parseIPv6(ip: string): ipaddr.IPv6 {
  const withoutZone = ip.split("%", 1)[0];
  const canonical = new URL(`http://[${withoutZone}]/`).hostname.slice(1, -1);
  return ipaddr.IPv6.parse(canonical);
}

/**
 * True only for public unicast addresses. Accepts the canonical textual forms a resolver
 * returns (dotted-quad IPv4, any IPv6 notation); anything else is refused.
 */
export function isPublicAddress(ip: string): boolean {
  const family = isIP(ip);
  try {
    if (family === 4) return isPublicIPv4(ipaddr.IPv4.parse(ip));
    if (family === 6) return isPublicIPv6(parseIPv6(ip));
  } catch {
    // A form node accepts but ipaddr cannot read is not worth the risk.
  }
  return false;
}

function stripBrackets(hostname: string): string {
  return hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
}

/**
 * Checks a webhook target against the URL policy and resolves the address to connect to.
 * Deliveries must connect to the returned address (see pinnedPost) so the name cannot be
 * re-resolved to a different, internal address between this check and the connection.
 * The same policy guards every other outgoing request to an address an account chose (the
 * messaging network's API base URL and media downloads); `subject` names the URL in reasons.
 */
export async function checkWebhookUrl({
  url,
  allowInsecure,
  lookup = dns.lookup as LookupAll,
  subject = "The webhook URL",
}: {
  url: string;
  allowInsecure: boolean;
  lookup?: LookupAll;
  subject?: string;
}): Promise<WebhookUrlCheck> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: `${subject} is not a valid absolute URL.` };
  }

  if (parsed.protocol !== "https:" && !(allowInsecure && parsed.protocol === "http:")) {
    return {
      ok: false,
      reason: allowInsecure
        ? `${subject} must use https or http.`
        : `${subject} must use https.`,
    };
  }
  if (parsed.username !== "" || parsed.password !== "") {
    return { ok: false, reason: `${subject} must not contain a user name or password.` };
  }

  // WHATWG URL has already turned decimal, hex and octal IPv4 spellings into dotted quads
  // and compressed IPv6 literals, so only canonical literals reach this point.
  const host = stripBrackets(parsed.hostname);
  if (host === "") return { ok: false, reason: `${subject} has no host.` };

  let addresses: ResolvedAddress[];
  const literalFamily = isIP(host);
  if (literalFamily !== 0) {
    addresses = [{ address: host, family: literalFamily }];
  } else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch {
      return { ok: false, reason: `${subject}'s host name could not be resolved.`, unresolved: true };
    }
    if (addresses.length === 0) {
      return { ok: false, reason: `${subject}'s host name could not be resolved.`, unresolved: true };
    }
  }

  for (const { address } of addresses) {
    if (isIP(address) === 0) {
      return { ok: false, reason: `${subject}'s host name could not be resolved.` };
    }
  }

  // Every address must pass, not just the first: a name with one public and one private
  // record would otherwise let the connection land on the private one.
  if (!allowInsecure && !addresses.every(({ address }) => isPublicAddress(address))) {
    return {
      ok: false,
      reason:
        literalFamily !== 0
          ? `${subject} points to an address that is not on the public internet (loopback, private, link-local or reserved).`
          : `${subject}'s host resolves to an address that is not on the public internet (loopback, private, link-local or reserved).`,
    };
  }

  const first = addresses[0];
  return { ok: true, url: parsed, address: first.address, family: isIP(first.address) as 4 | 6 };
}
