CREATE TABLE "knowledge_chunks" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "knowledge_chunks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entry_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"ordinal" integer NOT NULL,
	"content" text NOT NULL,
	"tokens" "tsvector" NOT NULL,
	"token_count" integer NOT NULL,
	"embedding" real[]
);
--> statement-breakpoint
CREATE TABLE "knowledge_entries" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "knowledge_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"account_id" integer NOT NULL,
	"content" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "knowledge_stats" (
	"account_id" integer PRIMARY KEY NOT NULL,
	"entry_count" integer DEFAULT 0 NOT NULL,
	"chunk_count" integer DEFAULT 0 NOT NULL,
	"token_total" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "knowledge_chunks" ADD CONSTRAINT "knowledge_chunks_entry_id_knowledge_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."knowledge_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_entries" ADD CONSTRAINT "knowledge_entries_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_stats" ADD CONSTRAINT "knowledge_stats_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "knowledge_chunks_tokens_idx" ON "knowledge_chunks" USING gin ("tokens");--> statement-breakpoint
CREATE INDEX "knowledge_chunks_entry_idx" ON "knowledge_chunks" USING btree ("entry_id");--> statement-breakpoint
CREATE INDEX "knowledge_chunks_account_idx" ON "knowledge_chunks" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "knowledge_entries_account_idx" ON "knowledge_entries" USING btree ("account_id","id");