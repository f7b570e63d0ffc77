ALTER TABLE "knowledge_chunks" ADD COLUMN "start_offset" integer;--> statement-breakpoint
ALTER TABLE "knowledge_chunks" ADD COLUMN "end_offset" integer;--> statement-breakpoint
-- Chunks stored before keep their place where their text is verbatim in the entry, else span the whole entry.
UPDATE "knowledge_chunks" c SET
  "start_offset" = CASE WHEN strpos(e."content", c."content") > 0 THEN strpos(e."content", c."content") - 1 ELSE 0 END,
  "end_offset" = CASE WHEN strpos(e."content", c."content") > 0 THEN strpos(e."content", c."content") - 1 + char_length(c."content") ELSE char_length(e."content") END
FROM "knowledge_entries" e WHERE e."id" = c."entry_id";--> statement-breakpoint
ALTER TABLE "knowledge_chunks" ALTER COLUMN "start_offset" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "knowledge_chunks" ALTER COLUMN "end_offset" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "knowledge_stats" ADD COLUMN "char_total" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Totals recounted from the rows (a clear racing an index could have left them off).
UPDATE "knowledge_stats" s SET
  "entry_count" = (SELECT count(*) FROM "knowledge_entries" e WHERE e."account_id" = s."account_id"),
  "char_total" = (SELECT coalesce(sum(char_length(e."content")), 0) FROM "knowledge_entries" e WHERE e."account_id" = s."account_id"),
  "chunk_count" = (SELECT count(*) FROM "knowledge_chunks" c WHERE c."account_id" = s."account_id"),
  "token_total" = (SELECT coalesce(sum(c."token_count"), 0) FROM "knowledge_chunks" c WHERE c."account_id" = s."account_id");
--> statement-breakpoint
ALTER TABLE "knowledge_chunks" DROP COLUMN "content";--> statement-breakpoint
DROP INDEX "knowledge_chunks_tokens_idx";--> statement-breakpoint
CREATE INDEX "knowledge_chunks_tokens_idx" ON "knowledge_chunks" USING gin ("tokens") WITH (fastupdate=false);