import { accountSummaryOutput } from "@/lib/accounts/schemas";
import { operationsFor, type V1Domain } from "../v1-common";

const tag = { name: "Account", description: "The business account the token belongs to." };
const op = operationsFor(tag.name);

export const accountDomain: V1Domain = {
  tag,
  paths: {
    "/v1/account": {
      get: op({
        operationId: "getAccount",
        summary: "Get the account",
        access: { auth: "any" },
        success: { status: "200", description: "The account and its number.", schema: accountSummaryOutput.meta({ id: "Account" }) },
      }),
    },
  },
};
