import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCloudAdapter, downloadCloudMedia } from "@/lib/network/cloud";
import { type FakeCloudNetwork, startFakeCloudNetwork } from "@/tests/support/fake-cloud-network";

const ACCESS_TOKEN = "EAAG-pinned-token";
const PHONE_NUMBER_ID = "106540352242922";
const PNG_BYTES = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");

let network: FakeCloudNetwork;
beforeEach(async () => {
  network = await startFakeCloudNetwork({ accessToken: ACCESS_TOKEN, phoneNumberId: PHONE_NUMBER_ID });
});
afterEach(async () => {
  await network.close();
});

/**
 * The URL policy resolved `graph.rebind.invalid` to the fake network's loopback address; a
 * second resolution (what fetch would do) cannot succeed (`.invalid` never resolves), so the
 * calls only work when they connect to the address the policy approved.
 */
const lookups: string[] = [];
const pinnedPolicy = {
  allowInsecure: true,
  lookup: async (hostname: string) => {
    lookups.push(hostname);
    return [{ address: "127.0.0.1", family: 4 }];
  },
};
const rebindingBase = () => network.apiBaseUrl.replace("127.0.0.1", "graph.rebind.invalid");

describe("6. Graph API calls and media downloads connect to the address the URL policy approved", () => {
  it("sends a message through the approved address, with the host name as Host", async () => {
    const adapter = createCloudAdapter({ apiBaseUrl: rebindingBase(), phoneNumberId: PHONE_NUMBER_ID, accessToken: ACCESS_TOKEN, urlPolicy: pinnedPolicy });
    const result = await adapter.send({ to: "15551234567", type: "text", text: "Pinned" });
    expect(result).toMatchObject({ ok: true });
    expect(lookups).toContain("graph.rebind.invalid");
    const sent = network.requests.find((r) => r.path.endsWith("/messages"));
    expect(sent?.headers.host).toMatch(/^graph\.rebind\.invalid:\d+$/);
  });

  it("uploads media (multipart) and downloads media through the approved address", async () => {
    const adapter = createCloudAdapter({ apiBaseUrl: rebindingBase(), phoneNumberId: PHONE_NUMBER_ID, accessToken: ACCESS_TOKEN, urlPolicy: pinnedPolicy });
    const sent = await adapter.send({ to: "15551234567", type: "image", media: { mimeType: "image/png", bytes: PNG_BYTES, caption: "a leaf" } });
    expect(sent).toMatchObject({ ok: true });
    const mediaId = network.addMedia({ bytes: PNG_BYTES, mimeType: "image/png" });
    const file = await downloadCloudMedia({ apiBaseUrl: rebindingBase(), accessToken: ACCESS_TOKEN, networkMediaId: mediaId, urlPolicy: pinnedPolicy });
    expect(file.bytes.equals(PNG_BYTES)).toBe(true);
  });
});
