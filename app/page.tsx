import { redirect } from "next/navigation";
import { isSetupDone } from "@/lib/accounts/setup";

export const dynamic = "force-dynamic";

export default async function Home() {
  redirect((await isSetupDone()) ? "/inbox" : "/setup");
}
