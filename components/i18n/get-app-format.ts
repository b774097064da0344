import "server-only";
import { getFormatter, getTranslations } from "next-intl/server";
import { FORMAT_NAMESPACE, makeAppFormat, type AppFormat } from "./app-format";

/** The reader's formats (see makeAppFormat), for server components. */
export async function getAppFormat(): Promise<AppFormat> {
  const [format, t] = await Promise.all([getFormatter(), getTranslations(FORMAT_NAMESPACE)]);
  return makeAppFormat(format, t as unknown as Parameters<typeof makeAppFormat>[1]);
}
