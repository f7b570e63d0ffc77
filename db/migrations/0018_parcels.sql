ALTER TABLE "delivery_watches" ADD COLUMN "stall_notified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "delivery_watches" ADD COLUMN "digest_at" text;--> statement-breakpoint
ALTER TABLE "delivery_watches" ADD COLUMN "digest_sent_on" text;--> statement-breakpoint
CREATE TABLE "delivery_carrier_corrections" (
	"scope" text NOT NULL,
	"number_hash" text NOT NULL,
	"carrier_id" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "delivery_carrier_corrections_scope_number_hash_pk" PRIMARY KEY("scope","number_hash")
);
--> statement-breakpoint
CREATE INDEX "delivery_carrier_corrections_updated_idx" ON "delivery_carrier_corrections" USING btree ("updated_at");--> statement-breakpoint
CREATE TABLE "delivery_durations" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "delivery_durations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"carrier_id" text NOT NULL,
	"status_id" text NOT NULL,
	"place_kind" text NOT NULL,
	"hour" integer NOT NULL,
	"hours" real NOT NULL,
	"working_hours" real NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "delivery_durations_lookup_idx" ON "delivery_durations" USING btree ("kind","carrier_id","status_id","recorded_at");--> statement-breakpoint
CREATE INDEX "delivery_durations_recorded_idx" ON "delivery_durations" USING btree ("recorded_at");--> statement-breakpoint
CREATE TABLE "delivery_channel_digests" (
	"account_id" integer NOT NULL,
	"platform" text NOT NULL,
	"channel_id" text NOT NULL,
	"digest_at" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "delivery_channel_digests_account_id_platform_channel_id_pk" PRIMARY KEY("account_id","platform","channel_id")
);
--> statement-breakpoint
ALTER TABLE "delivery_channel_digests" ADD CONSTRAINT "delivery_channel_digests_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;
