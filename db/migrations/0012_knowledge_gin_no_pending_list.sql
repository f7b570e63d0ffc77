DROP INDEX "knowledge_chunks_tokens_idx";--> statement-breakpoint
CREATE INDEX "knowledge_chunks_tokens_idx" ON "knowledge_chunks" USING gin ("tokens") WITH (fastupdate=false);