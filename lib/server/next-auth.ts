import "server-only";
import NextAuth from "next-auth";
import { authConfig } from "@/lib/auth/next-auth";
import { systemContext } from "./context";

// The browser sign-in's entry point: next-auth's handlers over the configuration of
// lib/auth/next-auth.ts, which reads and writes through the pool handed to it here. Lazy, so the
// build never reads the environment; next-auth calls this per request.
export const { handlers, signIn, signOut } = NextAuth(() => authConfig(systemContext().db));
