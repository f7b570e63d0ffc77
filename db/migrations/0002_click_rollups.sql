CREATE TABLE "link_click_counts" (
	"link_id" integer NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"referrer_host" text DEFAULT '' NOT NULL,
	"agent_class" text NOT NULL,
	"is_bot" boolean NOT NULL,
	"clicks" integer NOT NULL,
	CONSTRAINT "link_click_counts_link_id_minute_referrer_host_agent_class_is_bot_pk" PRIMARY KEY("link_id","minute","referrer_host","agent_class","is_bot")
);
--> statement-breakpoint
DROP TABLE "link_clicks" CASCADE;--> statement-breakpoint
ALTER TABLE "link_click_counts" ADD CONSTRAINT "link_click_counts_link_id_short_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."short_links"("id") ON DELETE cascade ON UPDATE no action;