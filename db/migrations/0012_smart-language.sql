ALTER TABLE "messages" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "business_profiles" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
CREATE TABLE "knowledge_passages" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"source_type" text NOT NULL,
	"document_id" text,
	"page" integer,
	"position" integer NOT NULL,
	"text" text NOT NULL,
	"search_en" "tsvector" NOT NULL,
	"search_es" "tsvector" NOT NULL,
	"search_pt" "tsvector" NOT NULL
);
--> statement-breakpoint
ALTER TABLE "knowledge_passages" ADD CONSTRAINT "knowledge_passages_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_passages" ADD CONSTRAINT "knowledge_passages_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "knowledge_passages_account_idx" ON "knowledge_passages" USING btree ("account_id","source_type","document_id");--> statement-breakpoint
CREATE INDEX "knowledge_passages_search_en_idx" ON "knowledge_passages" USING gin ("search_en");--> statement-breakpoint
CREATE INDEX "knowledge_passages_search_es_idx" ON "knowledge_passages" USING gin ("search_es");--> statement-breakpoint
CREATE INDEX "knowledge_passages_search_pt_idx" ON "knowledge_passages" USING gin ("search_pt");
