CREATE TABLE "bot_request_signatures" (
	"signature" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "throttle_windows" (
	"key" text PRIMARY KEY NOT NULL,
	"hits" integer NOT NULL,
	"window_ends_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "bot_request_signatures_expiry_idx" ON "bot_request_signatures" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "throttle_windows_end_idx" ON "throttle_windows" USING btree ("window_ends_at");