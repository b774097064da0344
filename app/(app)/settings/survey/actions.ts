"use server";

import { updateCsatConfig } from "@/lib/csat/config";
import { csatConfigInput } from "@/lib/csat/schemas";
import { action } from "@/lib/server/action";

export const saveCsatConfigAction = action({ role: "admin", schema: csatConfigInput, revalidate: "/settings/survey" }, (input, ctx) => updateCsatConfig({ ctx, input }));
