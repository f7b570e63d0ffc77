DELETE FROM "url_list_sources";--> statement-breakpoint
ALTER TABLE "url_list_sources" DROP COLUMN "entries";--> statement-breakpoint
ALTER TABLE "url_list_sources" ADD COLUMN "generation" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "url_list_sources" ADD COLUMN "chunks" text DEFAULT '{}' NOT NULL;--> statement-breakpoint
CREATE TABLE "url_list_chunks" (
	"name" text NOT NULL,
	"generation" integer NOT NULL,
	"kind" text NOT NULL,
	"seq" integer NOT NULL,
	"data" text NOT NULL,
	CONSTRAINT "url_list_chunks_name_generation_kind_seq_pk" PRIMARY KEY("name","generation","kind","seq")
);--> statement-breakpoint
ALTER TABLE "url_list_chunks" ALTER COLUMN "data" SET STORAGE EXTERNAL;--> statement-breakpoint
DELETE FROM "url_list_models";--> statement-breakpoint
ALTER TABLE "url_list_models" ALTER COLUMN "weights" SET DATA TYPE text;
