import { notServed } from "@/lib/api/route";
import { handlers } from "@/lib/server/next-auth";

export const { GET, POST } = handlers;
export const PUT = notServed("GET, HEAD, POST");
export { PUT as PATCH, PUT as DELETE, PUT as OPTIONS };
