-- Duplicates made before the constraint existed: keep the oldest active watch of each group.
UPDATE "delivery_watches" AS w SET "status" = 'failed', "end_reason" = 'duplicate', "ended_at" = now()
WHERE w."status" = 'active' AND EXISTS (
  SELECT 1 FROM "delivery_watches" AS o
  WHERE o."status" = 'active' AND o."account_id" = w."account_id" AND o."carrier_id" = w."carrier_id"
    AND o."track_id" = w."track_id" AND o."target_kind" = w."target_kind" AND o."target" = w."target" AND o."id" < w."id"
);--> statement-breakpoint
ALTER TABLE "delivery_watches" ADD COLUMN "requested_by" text;--> statement-breakpoint
ALTER TABLE "delivery_watches" ADD COLUMN "requester_pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "delivery_watches_active_uniq" ON "delivery_watches" USING btree ("account_id","carrier_id","track_id","target_kind","target") WHERE status = 'active';