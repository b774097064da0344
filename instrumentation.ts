export async function register() {
  // The Node.js server only: request stamping, migrations, the job runner and signal handling.
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { installRequestHook } = await import("./lib/platform/http/request-hook");
    installRequestHook();
    try {
      const { startServer } = await import("./lib/server/start");
      await startServer();
    } catch (error) {
      // A bad environment value (found while loading or starting) stops the server with one
      // line naming it, instead of leaving it up to answer 500 to everything.
      const message = error instanceof Error ? error.message : "";
      if (message.startsWith("Invalid environment variable ")) {
        console.error(message.split("\n")[0]);
        process.exit(1);
      }
      throw error;
    }
  }
}
