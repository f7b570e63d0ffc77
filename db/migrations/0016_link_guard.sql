CREATE TABLE "link_guard_channels" (
	"platform" text NOT NULL,
	"workspace_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"mode" text DEFAULT 'warn' NOT NULL,
	"locale" text DEFAULT 'ko' NOT NULL,
	"enabled_by" text NOT NULL,
	"quota_notice_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "link_guard_channels_platform_workspace_id_channel_id_pk" PRIMARY KEY("platform","workspace_id","channel_id")
);
--> statement-breakpoint
CREATE TABLE "link_guard_allowed_hosts" (
	"platform" text NOT NULL,
	"workspace_id" text NOT NULL,
	"host" text NOT NULL,
	"added_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "link_guard_allowed_hosts_platform_workspace_id_host_pk" PRIMARY KEY("platform","workspace_id","host")
);
--> statement-breakpoint
CREATE TABLE "link_guard_incidents" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "link_guard_incidents_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"account_id" integer,
	"platform" text NOT NULL,
	"workspace_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"poster_id" text NOT NULL,
	"url_hash" text NOT NULL,
	"host" text NOT NULL,
	"category" text NOT NULL,
	"reason" text NOT NULL,
	"action" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "link_guard_incidents" ADD CONSTRAINT "link_guard_incidents_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "link_guard_incidents_workspace_idx" ON "link_guard_incidents" USING btree ("platform","workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "link_guard_incidents_account_idx" ON "link_guard_incidents" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "link_guard_incidents_created_idx" ON "link_guard_incidents" USING btree ("created_at");
