import { describe, expect, it } from "vitest";
import { plainErrorMessage, plainFieldError, plainStatusMessage } from "@/lib/client/plain-errors";

describe("plain error sentences", () => {
  it("names the field in words instead of its wire name", () => {
    expect(plainErrorMessage("data: must be a PDF document (the file does not start with %PDF-)")).toBe(
      "The file must be a PDF document (the file does not start with %PDF-).",
    );
    expect(plainFieldError("events", 'must list at least one event type, or ["*"] for all')).toBe("The event list must list at least one event type, or “All events” for all.");
    expect(plainFieldError("media.caption", "must be at most 1024 characters")).toBe("The caption must be at most 1024 characters.");
    expect(plainFieldError("hours.weekly.mon.0.close", "must be after open")).toBe("The close must be after open.");
  });

  it("keeps messages that are already sentences, and joins several", () => {
    expect(plainErrorMessage("Conversation not found.")).toBe("Conversation not found.");
    expect(plainErrorMessage("url: must use https or http; secret: must be at least 16 characters")).toBe(
      "The address must use https or http. The signing secret must be at least 16 characters.",
    );
  });

  it("explains failures by status without the API's words for sessions and server errors", () => {
    expect(plainStatusMessage(401, "Authentication required: send Authorization: Bearer <token>.")).toBe("Your session has ended. Sign in again to continue.");
    expect(plainStatusMessage(502, "upstream connect error")).toBe("Chorus had a problem on its side. Try again in a moment.");
    expect(plainStatusMessage(0)).toMatch(/Could not reach Chorus/);
    expect(plainStatusMessage(400, "text: must not be empty")).toBe("The message must not be empty.");
  });
});
