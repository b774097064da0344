import { describe, expect, it } from "vitest";
import { checkWebhookUrl, isPublicAddress, type LookupAll } from "@/lib/platform/url-policy";

const refusedAddresses: [string, string][] = [
  ["127.0.0.1", "IPv4 loopback"],
  ["127.255.255.254", "end of 127/8"],
  ["10.0.0.1", "private 10/8"],
  ["172.16.0.1", "private 172.16/12 start"],
  ["172.31.255.255", "private 172.16/12 end"],
  ["192.168.1.1", "private 192.168/16"],
  ["169.254.169.254", "cloud metadata (link-local)"],
  ["169.254.0.1", "link-local"],
  ["100.64.0.1", "carrier-grade NAT start"],
  ["100.127.255.254", "carrier-grade NAT end"],
  ["0.0.0.0", "unspecified IPv4"],
  ["0.1.2.3", "0.0.0.0/8"],
  ["255.255.255.255", "broadcast"],
  ["224.0.0.1", "IPv4 multicast"],
  ["239.255.255.250", "IPv4 multicast (SSDP)"],
  ["240.0.0.1", "reserved 240/4"],
  ["192.0.0.8", "IETF protocol assignments 192.0.0/24"],
  ["192.0.2.10", "documentation 192.0.2/24"],
  ["198.51.100.7", "documentation 198.51.100/24"],
  ["203.0.113.5", "documentation 203.0.113/24"],
  ["198.18.0.1", "benchmarking 198.18/15"],
  ["198.19.255.254", "benchmarking 198.18/15 end"],
  ["::1", "IPv6 loopback"],
  ["::", "IPv6 unspecified"],
  ["fc00::1", "unique local fc00::/7"],
  ["fd12:3456:789a::1", "unique local fd00::/8"],
  ["fe80::1", "IPv6 link-local"],
  ["fe80::1%eth0", "IPv6 link-local with zone"],
  ["febf::1", "end of fe80::/10"],
  ["fec0::1", "deprecated site-local"],
  ["ff02::1", "IPv6 multicast"],
  ["ff0e::1", "IPv6 global multicast"],
  ["::ffff:127.0.0.1", "IPv4-mapped loopback (dotted)"],
  ["::ffff:7f00:1", "IPv4-mapped loopback (hex)"],
  ["::ffff:10.0.0.1", "IPv4-mapped private"],
  ["::ffff:169.254.169.254", "IPv4-mapped metadata"],
  ["::ffff:0:7f00:1", "IPv4-translated loopback"],
  ["::127.0.0.1", "IPv4-compatible loopback"],
  ["::8.8.8.8", "IPv4-compatible (deprecated) even when public"],
  ["64:ff9b::7f00:1", "NAT64 of loopback"],
  ["64:ff9b::a9fe:a9fe", "NAT64 of metadata"],
  ["64:ff9b:1::808:808", "local-use NAT64"],
  ["2002:7f00:1::1", "6to4 of loopback"],
  ["2002:808:808::1", "6to4 tunnel"],
  ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo"],
  ["2001:db8::1", "IPv6 documentation"],
  ["2001:2::1", "IPv6 benchmarking"],
  ["100::1", "discard-only"],
  ["3fff::1", "IPv6 documentation 3fff::/20"],
  ["4000::1", "outside global unicast 2000::/3"],
  ["not an address", "not an address"],
  ["2130706433", "decimal IPv4 spelling"],
  ["0x7f.0.0.1", "hex IPv4 spelling"],
  ["", "empty"],
];

const publicAddresses = [
  "8.8.8.8",
  "1.1.1.1",
  "93.184.216.34",
  "172.32.0.1",
  "100.128.0.1",
  "192.169.0.1",
  "2606:4700:4700::1111",
  "2a00:1450:4001:80b::200e",
  "::ffff:8.8.8.8",
  "64:ff9b::808:808",
];

describe("isPublicAddress", () => {
  it.each(refusedAddresses)("refuses %s (%s)", (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(publicAddresses)("accepts public unicast %s", (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

function lookupReturning(addresses: string[]): LookupAll {
  return async () =>
    addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
}

const publicLookup = lookupReturning(["93.184.216.34"]);

describe("checkWebhookUrl", () => {
  const refusedUrls: [string, string][] = [
    ["http://2130706433/", "decimal IPv4 host"],
    ["https://2130706433/", "decimal IPv4 host over https"],
    ["https://0x7f.0.0.1/", "hex IPv4 host"],
    ["https://0177.0.0.1/", "octal IPv4 host"],
    ["https://127.1/", "shortened IPv4 host"],
    ["https://127.0.0.1/hook", "loopback literal"],
    ["https://127.0.0.1:8443/hook", "loopback literal with port"],
    ["https://10.1.2.3/", "private literal"],
    ["https://169.254.169.254/latest/meta-data/", "metadata literal"],
    ["https://100.64.0.1/", "CGNAT literal"],
    ["https://0.0.0.0/", "unspecified literal"],
    ["https://[::1]/", "IPv6 loopback literal"],
    ["https://[::ffff:127.0.0.1]/", "IPv4-mapped loopback literal"],
    ["https://[::ffff:7f00:1]/", "IPv4-mapped loopback literal in hex"],
    ["https://[fe80::1]/", "IPv6 link-local literal"],
    ["https://[fd00::1]/", "IPv6 unique local literal"],
    ["https://[ff02::1]/", "IPv6 multicast literal"],
    ["https://[64:ff9b::a9fe:a9fe]/", "NAT64 of metadata literal"],
    ["https://user:pass@example.com/", "user-info"],
    ["https://user@example.com/", "user name only"],
    ["ftp://example.com/", "ftp scheme"],
    ["http://example.com/", "http without insecure targets"],
    ["file:///etc/passwd", "file scheme"],
    ["javascript:alert(1)", "javascript scheme"],
    ["example.com/hook", "relative URL"],
    ["", "empty URL"],
  ];

  it.each(refusedUrls)("refuses %s (%s)", async (url) => {
    const result = await checkWebhookUrl({ url, allowInsecure: false, lookup: publicLookup });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(/^The webhook URL .+\.$/);
  });

  it("normalises numeric IPv4 spellings before checking them", async () => {
    const looked: string[] = [];
    const lookup: LookupAll = async (hostname) => {
      looked.push(hostname);
      return [{ address: "93.184.216.34", family: 4 }];
    };
    const result = await checkWebhookUrl({ url: "https://0x7f.0.0.1/", allowInsecure: false, lookup });
    expect(result).toEqual({ ok: false, reason: expect.stringContaining("not on the public internet") });
    expect(looked).toEqual([]);
  });

  it("explains the scheme, user-info and address refusals in sentences", async () => {
    const http = await checkWebhookUrl({ url: "http://example.com/", allowInsecure: false, lookup: publicLookup });
    expect(http).toEqual({ ok: false, reason: "The webhook URL must use https." });
    const userInfo = await checkWebhookUrl({
      url: "https://user:pass@example.com/",
      allowInsecure: false,
      lookup: publicLookup,
    });
    expect(userInfo).toEqual({ ok: false, reason: "The webhook URL must not contain a user name or password." });
  });

  it("refuses a host name that resolves to a mix of public and private addresses", async () => {
    const result = await checkWebhookUrl({
      url: "https://mixed.example.com/hook",
      allowInsecure: false,
      lookup: lookupReturning(["93.184.216.34", "10.0.0.5"]),
    });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain("resolves to an address that is not on the public internet");
  });

  it("refuses a host name whose only IPv6 record is IPv4-mapped loopback", async () => {
    const result = await checkWebhookUrl({
      url: "https://sneaky.example.com/",
      allowInsecure: false,
      lookup: lookupReturning(["2606:4700:4700::1111", "::ffff:127.0.0.1"]),
    });
    expect(result.ok).toBe(false);
  });

  it("refuses a host name that does not resolve", async () => {
    const lookup: LookupAll = async () => {
      throw Object.assign(new Error("getaddrinfo ENOTFOUND nowhere.invalid"), { code: "ENOTFOUND" });
    };
    const result = await checkWebhookUrl({ url: "https://nowhere.invalid/", allowInsecure: false, lookup });
    expect(result).toEqual({ ok: false, reason: "The webhook URL's host name could not be resolved.", unresolved: true });
  });

  it("refuses a host name that resolves to nothing", async () => {
    const result = await checkWebhookUrl({
      url: "https://empty.example.com/",
      allowInsecure: false,
      lookup: lookupReturning([]),
    });
    expect(result.ok).toBe(false);
  });

  it("accepts an https host resolving only to public addresses and pins the first one", async () => {
    const lookupCalls: [string, unknown][] = [];
    const lookup: LookupAll = async (hostname, options) => {
      lookupCalls.push([hostname, options]);
      return [
        { address: "2606:4700:4700::1111", family: 6 },
        { address: "93.184.216.34", family: 4 },
      ];
    };
    const result = await checkWebhookUrl({
      url: "https://hooks.example.com:8443/chorus?x=1",
      allowInsecure: false,
      lookup,
    });
    expect(result).toMatchObject({ ok: true, address: "2606:4700:4700::1111", family: 6 });
    if (result.ok) expect(result.url.href).toBe("https://hooks.example.com:8443/chorus?x=1");
    expect(lookupCalls).toEqual([["hooks.example.com", { all: true, verbatim: true }]]);
  });

  it("accepts a public IPv4 literal without a lookup", async () => {
    const lookup: LookupAll = async () => {
      throw new Error("a literal must not be looked up");
    };
    const result = await checkWebhookUrl({ url: "https://93.184.216.34/hook", allowInsecure: false, lookup });
    expect(result).toMatchObject({ ok: true, address: "93.184.216.34", family: 4 });
  });

  it("accepts a bracketed public IPv6 literal and pins it without brackets", async () => {
    const result = await checkWebhookUrl({
      url: "https://[2606:4700:4700::1111]:9000/",
      allowInsecure: false,
      lookup: publicLookup,
    });
    expect(result).toMatchObject({ ok: true, address: "2606:4700:4700::1111", family: 6 });
  });

  it("allows http to a loopback port when insecure targets are allowed", async () => {
    const result = await checkWebhookUrl({ url: "http://127.0.0.1:1234/hook", allowInsecure: true });
    expect(result).toMatchObject({ ok: true, address: "127.0.0.1", family: 4 });
  });

  it("allows a private resolved address when insecure targets are allowed", async () => {
    const result = await checkWebhookUrl({
      url: "http://receiver.internal:8080/",
      allowInsecure: true,
      lookup: lookupReturning(["10.0.0.5"]),
    });
    expect(result).toMatchObject({ ok: true, address: "10.0.0.5", family: 4 });
  });

  it("still refuses user-info and other schemes when insecure targets are allowed", async () => {
    const userInfo = await checkWebhookUrl({ url: "http://a:b@127.0.0.1/", allowInsecure: true });
    expect(userInfo.ok).toBe(false);
    const ftp = await checkWebhookUrl({ url: "ftp://127.0.0.1/", allowInsecure: true });
    expect(ftp.ok).toBe(false);
  });
});
