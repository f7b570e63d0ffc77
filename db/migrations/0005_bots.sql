CREATE TABLE "workspace_links" (
	"platform" text NOT NULL,
	"workspace_id" text NOT NULL,
	"account_id" integer NOT NULL,
	"api_key_id" integer NOT NULL,
	"linked_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workspace_links_platform_workspace_id_pk" PRIMARY KEY("platform","workspace_id")
);
--> statement-breakpoint
ALTER TABLE "workspace_links" ADD CONSTRAINT "workspace_links_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_links" ADD CONSTRAINT "workspace_links_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "workspace_links_account_idx" ON "workspace_links" USING btree ("account_id");