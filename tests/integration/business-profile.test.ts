import { describe, expect, it } from "vitest";
import * as profileRoute from "@/app/v1/config/business-profile/route";
import { call } from "@/tests/support/api";
import { addTestUser, createTestAccount } from "@/tests/support/fixtures";

const path = "/v1/config/business-profile";

const validProfile = () => ({
  name: "Green Leaf Plants",
  description: "Houseplants, pots and soil. Delivery within Madrid in 48 h. Returns within 30 days.",
  hours: {
    timezone: "Europe/Madrid",
    weekly: {
      mon: [{ open: "09:00", close: "14:00" }, { open: "16:00", close: "20:00" }],
      tue: [{ open: "09:00", close: "20:00" }],
      wed: [{ open: "09:00", close: "20:00" }],
      thu: [{ open: "09:00", close: "20:00" }],
      fri: [{ open: "16:00", close: "20:00" }, { open: "09:00", close: "14:00" }],
      sat: [{ open: "10:00", close: "14:00" }],
    },
  },
  auto_reply: {
    outside_hours: { enabled: true, message: "Thanks for writing! We are closed right now." },
    hours_question: { enabled: true },
  },
});

const put = (token: string, body: unknown) => call(profileRoute.PUT, { method: "PUT", path, token, body });

describe("business profile API", () => {
  it("starts with the account name and nothing configured", async () => {
    const { account, adminToken } = await createTestAccount("Corner Bakery");
    const res = await call(profileRoute.GET, { path, token: adminToken });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: account.name,
      description: "",
      hours: null,
      auto_reply: { outside_hours: { enabled: false, message: "" }, hours_question: { enabled: false } },
      open_now: null,
      next_opening_at: null,
    });
  });

  it("replaces the whole profile and reads it back with every day and sorted intervals", async () => {
    const { adminToken } = await createTestAccount();
    const res = await put(adminToken, validProfile());
    expect(res.status).toBe(200);
    expect(res.body.hours.weekly.fri).toEqual([{ open: "09:00", close: "14:00" }, { open: "16:00", close: "20:00" }]);
    expect(res.body.hours.weekly.sun).toEqual([]);
    expect(typeof res.body.open_now).toBe("boolean");
    expect(new Date(res.body.next_opening_at).getTime()).toBeGreaterThan(Date.now());
    const read = await call(profileRoute.GET, { path, token: adminToken });
    expect(read.body).toEqual({ ...res.body, open_now: read.body.open_now, next_opening_at: read.body.next_opening_at });

    // What was read can be sent back as is (read-only fields are ignored).
    const again = await put(adminToken, { ...read.body, name: "  Green Leaf  ", hours: null, auto_reply: { outside_hours: { enabled: false, message: "" }, hours_question: { enabled: false } } });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ name: "Green Leaf", hours: null, open_now: null });
  });

  it.each([
    ["a missing name", { name: undefined }, "name"],
    ["an empty name", { name: "   " }, "name"],
    ["a name over 100 characters", { name: "x".repeat(101) }, "name"],
    ["a description over 5000 characters", { description: "x".repeat(5001) }, "description"],
    ["a missing description", { description: undefined }, "description"],
    ["missing hours (null clears them)", { hours: undefined }, "hours"],
    ["an invalid time zone", { hours: { timezone: "Europe/Atlantis", weekly: {} } }, "hours.timezone"],
    ["an offset instead of a time zone", { hours: { timezone: "+02:00", weekly: {} } }, "hours.timezone"],
    ["an inverted interval", { hours: { timezone: "UTC", weekly: { mon: [{ open: "18:00", close: "09:00" }] } } }, "hours.weekly.mon.0.close"],
    [
      "overlapping intervals",
      { hours: { timezone: "UTC", weekly: { tue: [{ open: "09:00", close: "13:00" }, { open: "12:30", close: "18:00" }] } } },
      "hours.weekly.tue.1",
    ],
    ["a malformed time", { hours: { timezone: "UTC", weekly: { wed: [{ open: "9am", close: "18:00" }] } } }, "hours.weekly.wed.0.open"],
    ["an unknown weekday", { hours: { timezone: "UTC", weekly: { funday: [] } } }, "hours.weekly"],
    ["an outside-hours message over 1000 characters", { auto_reply: { outside_hours: { enabled: false, message: "x".repeat(1001) }, hours_question: { enabled: false } } }, "auto_reply.outside_hours.message"],
    ["a non-boolean enabled flag", { auto_reply: { outside_hours: { enabled: "yes", message: "Closed" }, hours_question: { enabled: false } } }, "auto_reply.outside_hours.enabled"],
    ["a missing auto_reply", { auto_reply: undefined }, "auto_reply"],
    ["an outside-hours reply without hours", { hours: null }, "auto_reply.outside_hours.enabled"],
  ])("refuses %s with a 400 naming the field, changing nothing", async (_name, patch, field) => {
    const { adminToken } = await createTestAccount();
    const before = await call(profileRoute.GET, { path, token: adminToken });
    const res = await put(adminToken, { ...validProfile(), ...patch });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("validation_error");
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(field);
    const after = await call(profileRoute.GET, { path, token: adminToken });
    expect(after.body.updated_at).toBe(before.body.updated_at);
  });

  it("lets agents read but not change it", async () => {
    const { account, adminToken } = await createTestAccount();
    await put(adminToken, validProfile());
    const agent = await addTestUser(account.id, "agent");
    const read = await call(profileRoute.GET, { path, token: agent.token });
    expect(read.status).toBe(200);
    expect(read.body.name).toBe("Green Leaf Plants");
    const write = await put(agent.token, { ...validProfile(), name: "Hijacked" });
    expect(write.status).toBe(403);
    expect(write.body.error.code).toBe("forbidden");
  });

  it("keeps each account's profile to itself", async () => {
    const first = await createTestAccount();
    const second = await createTestAccount("Other Shop");
    await put(first.adminToken, validProfile());
    const other = await call(profileRoute.GET, { path, token: second.adminToken });
    expect(other.body).toMatchObject({ name: "Other Shop", hours: null });
  });

  it("answers 405 with an Allow header for other methods", async () => {
    const { adminToken } = await createTestAccount();
    const res = await call(profileRoute.POST, { method: "POST", path, token: adminToken, body: validProfile() });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, PUT, HEAD");
  });
});
