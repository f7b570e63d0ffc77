ALTER TABLE "short_links" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "short_links" ADD COLUMN "max_clicks" integer;--> statement-breakpoint
ALTER TABLE "short_links" ADD COLUMN "clicks_used" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "short_links" ADD COLUMN "origin_platform" text;--> statement-breakpoint
ALTER TABLE "short_links" ADD COLUMN "origin_workspace" text;--> statement-breakpoint
ALTER TABLE "short_links" ADD COLUMN "origin_channel" text;--> statement-breakpoint
ALTER TABLE "short_links" ADD COLUMN "scanned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "short_links" ADD COLUMN "harm_category" text;--> statement-breakpoint
ALTER TABLE "short_links" ADD COLUMN "harm_reason" text;--> statement-breakpoint
ALTER TABLE "short_links" ADD COLUMN "harm_found_at" timestamp with time zone;--> statement-breakpoint
DROP INDEX "short_links_account_url_key";--> statement-breakpoint
CREATE UNIQUE INDEX "short_links_account_url_key" ON "short_links" USING btree ("account_id","url_hash") WHERE expires_at IS NULL AND max_clicks IS NULL;--> statement-breakpoint
CREATE INDEX "short_links_rescan_idx" ON "short_links" USING btree ("scanned_at" NULLS FIRST,"id") WHERE harm_category IS NULL;--> statement-breakpoint
CREATE TABLE "link_click_facets" (
	"link_id" integer NOT NULL,
	"day" date NOT NULL,
	"facet" text NOT NULL,
	"value" text NOT NULL,
	"is_bot" boolean NOT NULL,
	"clicks" integer NOT NULL,
	CONSTRAINT "link_click_facets_pk" PRIMARY KEY("link_id","day","facet","value","is_bot")
);
--> statement-breakpoint
ALTER TABLE "link_click_facets" ADD CONSTRAINT "link_click_facets_link_id_short_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."short_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE TABLE "link_visitors" (
	"link_id" integer NOT NULL,
	"day" date NOT NULL,
	"visitor" text NOT NULL,
	CONSTRAINT "link_visitors_pk" PRIMARY KEY("link_id","day","visitor")
);
--> statement-breakpoint
ALTER TABLE "link_visitors" ADD CONSTRAINT "link_visitors_link_id_short_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."short_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE TABLE "link_visitor_salts" (
	"day" date PRIMARY KEY NOT NULL,
	"salt" text NOT NULL
);
