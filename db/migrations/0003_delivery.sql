CREATE TABLE "delivery_rate_slots" (
	"bucket" text PRIMARY KEY NOT NULL,
	"next_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "delivery_tracking_cache" (
	"carrier_id" text NOT NULL,
	"track_id" text NOT NULL,
	"result" jsonb NOT NULL,
	"delivered" boolean NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL,
	CONSTRAINT "delivery_tracking_cache_carrier_id_track_id_pk" PRIMARY KEY("carrier_id","track_id")
);
