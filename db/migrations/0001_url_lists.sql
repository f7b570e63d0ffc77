CREATE TABLE "url_list_entries" (
	"source" text NOT NULL,
	"expression" text NOT NULL,
	"hash" bigint NOT NULL,
	CONSTRAINT "url_list_entries_source_expression_pk" PRIMARY KEY("source","expression")
);
--> statement-breakpoint
CREATE TABLE "url_list_sources" (
	"name" text PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"category" text NOT NULL,
	"format" text NOT NULL,
	"entry_count" integer NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "url_list_entries" ADD CONSTRAINT "url_list_entries_source_url_list_sources_name_fk" FOREIGN KEY ("source") REFERENCES "public"."url_list_sources"("name") ON DELETE cascade ON UPDATE no action;