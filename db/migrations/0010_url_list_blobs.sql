ALTER TABLE "url_list_entries" DISABLE ROW LEVEL SECURITY;--> statement-breakpoint
DROP TABLE "url_list_entries" CASCADE;--> statement-breakpoint
ALTER TABLE "url_list_sources" ALTER COLUMN "fetched_at" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "url_list_sources" ADD COLUMN "skipped_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "url_list_sources" ADD COLUMN "last_attempt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "url_list_sources" ADD COLUMN "last_error" text;--> statement-breakpoint
ALTER TABLE "url_list_sources" ADD COLUMN "entries" "bytea";--> statement-breakpoint
DELETE FROM "url_list_sources";
