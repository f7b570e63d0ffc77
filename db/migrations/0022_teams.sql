-- Issue 48: an account is a team. Its people are members with their own e-mail, password, role
-- and sessions; every single-user account becomes a team of one whose owner is that user, so
-- keys, quotas and live sessions carry on unchanged.
CREATE TABLE "team_members" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "team_members_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"account_id" integer NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"role" text NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone,
	CONSTRAINT "team_members_email_unique" UNIQUE("email"),
	CONSTRAINT "team_members_role_check" CHECK ("role" IN ('owner', 'admin', 'developer', 'viewer'))
);
--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "team_members_account_idx" ON "team_members" USING btree ("account_id");--> statement-breakpoint
INSERT INTO "team_members" ("account_id", "email", "password_hash", "role", "joined_at")
	SELECT "id", "email", "password_hash", 'owner', "created_at" FROM "accounts" ORDER BY "id";--> statement-breakpoint
-- The password is the member's now; the account's e-mail stays as the team's founding address
-- (no longer unique: a founder who handed the team over and left may found another).
ALTER TABLE "accounts" DROP COLUMN "password_hash";--> statement-breakpoint
ALTER TABLE "accounts" DROP CONSTRAINT "accounts_email_unique";--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "member_id" integer;--> statement-breakpoint
UPDATE "sessions" SET "member_id" = "team_members"."id" FROM "team_members" WHERE "team_members"."account_id" = "sessions"."account_id";--> statement-breakpoint
ALTER TABLE "sessions" ALTER COLUMN "member_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_member_id_team_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."team_members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sessions_member_idx" ON "sessions" USING btree ("member_id");--> statement-breakpoint
-- Who made a key; the key stays with the team when that member leaves.
ALTER TABLE "api_keys" ADD COLUMN "created_by" integer;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_created_by_team_members_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."team_members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE TABLE "team_invites" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "team_invites_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"account_id" integer NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"token_hash" text NOT NULL,
	"invited_by" integer,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "team_invites_token_hash_unique" UNIQUE("token_hash"),
	CONSTRAINT "team_invites_role_check" CHECK ("role" IN ('owner', 'admin', 'developer', 'viewer'))
);
--> statement-breakpoint
ALTER TABLE "team_invites" ADD CONSTRAINT "team_invites_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_invites" ADD CONSTRAINT "team_invites_invited_by_team_members_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."team_members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "team_invites_account_idx" ON "team_invites" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "team_invites_expiry_idx" ON "team_invites" USING btree ("expires_at");--> statement-breakpoint
-- The audit log: who did what, when and from where. Append-only (the trigger below); rows go
-- only when a year old (housekeeping) or with their account.
CREATE TABLE "audit_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"account_id" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_kind" text NOT NULL,
	"actor_id" text NOT NULL,
	"actor_label" text NOT NULL,
	"action" text NOT NULL,
	"target" text NOT NULL,
	"ip" text,
	CONSTRAINT "audit_events_actor_kind_check" CHECK ("actor_kind" IN ('member', 'api_key', 'slack', 'discord', 'system'))
);
--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_events_account_at_idx" ON "audit_events" USING btree ("account_id","at");--> statement-breakpoint
CREATE INDEX "audit_events_at_idx" ON "audit_events" USING btree ("at");--> statement-breakpoint
-- Append-only, held by the database itself: no UPDATE ever; a DELETE only of a row past its year
-- (housekeeping's purge) or of an account being deleted (its rows cascade with it).
CREATE FUNCTION "audit_events_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'UPDATE' THEN
		RAISE EXCEPTION 'audit_events is append-only';
	END IF;
	IF OLD."at" > now() - interval '1 year' AND EXISTS (SELECT 1 FROM "accounts" WHERE "id" = OLD."account_id") THEN
		RAISE EXCEPTION 'audit_events rows are kept one year';
	END IF;
	RETURN OLD;
END
$$;--> statement-breakpoint
CREATE TRIGGER "audit_events_append_only" BEFORE UPDATE OR DELETE ON "audit_events" FOR EACH ROW EXECUTE FUNCTION "audit_events_append_only"();
