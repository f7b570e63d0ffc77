CREATE TABLE "bot_events" (
	"platform" text NOT NULL,
	"app_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"event_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "bot_events_platform_app_id_workspace_id_event_id_pk" PRIMARY KEY("platform","app_id","workspace_id","event_id")
);
--> statement-breakpoint
CREATE INDEX "bot_events_expiry_idx" ON "bot_events" USING btree ("expires_at");--> statement-breakpoint
ALTER TABLE "link_guard_channels" ADD COLUMN "messages" boolean DEFAULT false NOT NULL;
