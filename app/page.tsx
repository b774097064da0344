import { redirect } from "next/navigation";
import { isSetupDone } from "@/lib/accounts/setup";
import { systemContext } from "@/lib/server/context";

export const dynamic = "force-dynamic";

export default async function Home() {
  redirect((await isSetupDone(systemContext().db)) ? "/inbox" : "/setup");
}
