CREATE TABLE "delivery_watches" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "delivery_watches_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"account_id" integer NOT NULL,
	"carrier_id" text NOT NULL,
	"track_id" text NOT NULL,
	"target_kind" text NOT NULL,
	"target" text NOT NULL,
	"workspace_id" text,
	"webhook_secret" text,
	"status" text DEFAULT 'active' NOT NULL,
	"end_reason" text,
	"last_state_id" text,
	"last_event_key" text,
	"seen_events" integer DEFAULT 0 NOT NULL,
	"stall_notified" boolean DEFAULT false NOT NULL,
	"quiet_polls" integer DEFAULT 0 NOT NULL,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"failing_since" timestamp with time zone,
	"next_poll_at" timestamp with time zone NOT NULL,
	"claim_id" text,
	"last_polled_at" timestamp with time zone,
	"last_notified_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "delivery_watches" ADD CONSTRAINT "delivery_watches_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "delivery_watches_due_idx" ON "delivery_watches" USING btree ("next_poll_at") WHERE status = 'active';--> statement-breakpoint
CREATE INDEX "delivery_watches_account_idx" ON "delivery_watches" USING btree ("account_id","id");