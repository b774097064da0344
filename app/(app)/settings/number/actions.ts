"use server";

import { numberConfigInput, testNumberConnection, updateNumberConfig } from "@/lib/network/number-config";
import { action } from "@/lib/server/action";

/** The same verb as PUT /v1/config/number. */
export const saveNumberSettingsAction = action({ role: "admin", schema: numberConfigInput }, (input, ctx) => updateNumberConfig({ ctx, input }));

/** POST /v1/config/number/test. */
export const testNumberConnectionAction = action({ role: "admin" }, (_, ctx) => testNumberConnection({ ctx }));
