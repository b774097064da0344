"use server";

import { requireAdmin } from "@/lib/server/session";
import { numberConfigInput, testNumberConnection, updateNumberConfig } from "@/lib/network/number-config";
import { runAction } from "@/lib/server/action";

/** Admin only: the same verb as PUT /v1/config/number; agents get a 403 result. */
export async function saveNumberSettingsAction(input: unknown) {
  return runAction(async () => {
    const session = await requireAdmin();
    return updateNumberConfig({ ctx: session, input: numberConfigInput.parse(input) });
  });
}

/** Admin only: POST /v1/config/number/test. */
export async function testNumberConnectionAction() {
  return runAction(async () => testNumberConnection({ ctx: await requireAdmin() }));
}
