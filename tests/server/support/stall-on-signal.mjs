// Preloaded into a test server (`node --import`): on SIGUSR2 the server's own embedded
// database runs one long statement (pg_sleep for STALL_SECONDS), as a slow query or a
// vacuum of a big table would. Nothing else of the server changes.
const seconds = Number(process.env.STALL_SECONDS ?? 5);
process.on("SIGUSR2", () => {
  const database = globalThis.__chorusDb?.pglite;
  if (!database) return console.error("stall: no embedded database yet");
  console.log(`stall: running a ${seconds} s statement`);
  database.query(`select pg_sleep(${seconds})`).then(
    () => console.log("stall: done"),
    (error) => console.error(`stall: ${error.message}`),
  );
});
