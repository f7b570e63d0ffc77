ALTER TABLE "knowledge_entries" ADD COLUMN "source" text;--> statement-breakpoint
ALTER TABLE "knowledge_entries" ADD COLUMN "source_url" text;--> statement-breakpoint
ALTER TABLE "knowledge_entries" ADD COLUMN "scope" text;--> statement-breakpoint
ALTER TABLE "knowledge_chunks" ADD COLUMN "scope" text;--> statement-breakpoint
CREATE TABLE "knowledge_feedback" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "knowledge_feedback_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"account_id" integer NOT NULL,
	"question" text NOT NULL,
	"scope" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "knowledge_feedback" ADD CONSTRAINT "knowledge_feedback_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "knowledge_feedback_account_idx" ON "knowledge_feedback" USING btree ("account_id","id");--> statement-breakpoint
CREATE TABLE "knowledge_workspace_settings" (
	"platform" text NOT NULL,
	"workspace_id" text NOT NULL,
	"thread_authors" text DEFAULT 'roles' NOT NULL,
	CONSTRAINT "knowledge_workspace_settings_platform_workspace_id_pk" PRIMARY KEY("platform","workspace_id")
);
