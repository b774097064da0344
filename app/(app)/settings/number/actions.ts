"use server";
import "@/lib/server/wiring";

import { z } from "zod";
import { requireAdmin } from "@/lib/auth/current-user";
import { ApiError } from "@/lib/platform/errors";
import {
  type NumberConfigOutput,
  numberConfigInput,
  testNumberConnection,
  updateNumberConfig,
} from "@/lib/network/number-config";

export type ActionResult<T> =
  | { ok: true; data: T }
  | { ok: false; status: number; message: string; fieldErrors: Record<string, string> };

function toFailure(error: unknown): ActionResult<never> {
  if (error instanceof ApiError) {
    const fieldErrors: Record<string, string> = {};
    for (const detail of error.details ?? []) fieldErrors[detail.path] ??= detail.message;
    return { ok: false, status: error.status, message: error.message, fieldErrors };
  }
  throw error;
}

/** Admin only: the same verb as PUT /v1/config/number; agents get a 403 result. */
export async function saveNumberSettingsAction(input: unknown): Promise<ActionResult<NumberConfigOutput>> {
  try {
    const session = await requireAdmin();
    const parsed = numberConfigInput.safeParse(input);
    if (!parsed.success) {
      const fieldErrors: Record<string, string> = {};
      for (const issue of parsed.error.issues) fieldErrors[issue.path.map(String).join(".")] ??= issue.message;
      return { ok: false, status: 400, message: "Some fields need attention.", fieldErrors };
    }
    return { ok: true, data: await updateNumberConfig({ ctx: session, input: parsed.data }) };
  } catch (error) {
    if (error instanceof z.ZodError) return { ok: false, status: 400, message: error.message, fieldErrors: {} };
    return toFailure(error);
  }
}

/** Admin only: POST /v1/config/number/test. */
export async function testNumberConnectionAction(): Promise<ActionResult<{ ok: boolean; message: string; status: NumberConfigOutput["status"] }>> {
  try {
    const session = await requireAdmin();
    return { ok: true, data: await testNumberConnection({ ctx: session }) };
  } catch (error) {
    return toFailure(error);
  }
}
