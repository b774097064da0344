export async function register() {
  // The Node.js server only: migrations, the job runner and signal handling.
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { startServer } = await import("./lib/server/start");
    await startServer();
  }
}
