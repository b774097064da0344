// The sealing lives with the keys (lib/auth) so that sign-in's second factor can use it too.
export { decryptSecret, encryptSecret } from "@/lib/auth/seal";
