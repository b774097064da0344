// Every test process gets a fixed secret and an in-memory database so nothing touches ./.data.
process.env.AUTH_SECRET ??= "test-secret-for-chorus-tests-only-0123456789";
process.env.PGLITE_DIR = "memory://";
process.env.APP_URL ??= "http://localhost:3000";
delete process.env.DATABASE_URL;
