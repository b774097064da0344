import { z } from "zod";
import { availabilities } from "@/lib/auth/user-identity";

export const setAvailabilityInput = z
  .strictObject({
    availability: z.enum(availabilities, { error: "must be one of online, busy, offline" }).meta({ description: "`online` receives conversations automatically; `busy` and `offline` do not.", example: "online" }),
  })
  .meta({ id: "SetAvailability" });
