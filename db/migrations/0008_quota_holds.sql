CREATE TABLE "quota_holds" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "quota_holds_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"instance_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"api" text NOT NULL,
	"renews_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "quota_holds_instance_idx" ON "quota_holds" USING btree ("instance_id");