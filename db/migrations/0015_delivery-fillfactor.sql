-- A delivery row is updated when it is claimed (locked_until, claims: no index covers them).
-- Room on each page lets those updates be HOT (no index entries to add), which matters most on
-- the embedded database, where no autovacuum frees space.
ALTER TABLE "webhook_deliveries" SET (fillfactor = 60);
