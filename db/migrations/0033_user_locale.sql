-- The interface language a person chose (en, es, pt-BR); null until they choose one.
ALTER TABLE "users" ADD COLUMN "locale" text;
