-- One hold row per (instance, account, api, period) counting its calls, instead of one row per call.
DROP INDEX "quota_holds_instance_idx";--> statement-breakpoint
ALTER TABLE "quota_holds" ADD COLUMN "units" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
-- Per-call holds left by an older version (a crash before the upgrade) become counted rows.
WITH merged AS (DELETE FROM "quota_holds" RETURNING "instance_id", "account_id", "api", "renews_at", "units")
INSERT INTO "quota_holds" ("instance_id", "account_id", "api", "renews_at", "units")
SELECT "instance_id", "account_id", "api", "renews_at", sum("units")::int FROM merged GROUP BY 1, 2, 3, 4;--> statement-breakpoint
ALTER TABLE "quota_holds" ALTER COLUMN "units" SET DEFAULT 0;--> statement-breakpoint
CREATE UNIQUE INDEX "quota_holds_lease_key" ON "quota_holds" USING btree ("instance_id","account_id","api","renews_at");--> statement-breakpoint
-- The statement of every charging batch (src/platform/quota-hold-store.ts), as a function so that
-- its plans are prepared once per connection: settles the answered calls of this instance's
-- leases (one counter update each), then takes `wanted` calls per (account, api), keys in the
-- order given (the caller sorts them, so two instances never deadlock), `remaining -
-- least(remaining, n)` under the row lock, renewing a lapsed month on the way, plus `extra`
-- units leased ahead when at least `extra + low` would remain. One row per key asked for
-- (`avail` null: no subscription) and one row per lease settled (`settled`).
CREATE FUNCTION "quota_take_settle"(
	p_instance integer, p_now timestamptz, p_next timestamptz,
	p_accounts integer[], p_apis text[], p_wanted integer[], p_extra integer[], p_low integer,
	p_leases bigint[], p_counts integer[]
) RETURNS TABLE (
	o_account integer, o_api text, o_avail integer, o_quota integer, o_period timestamptz, o_granted integer, o_lease bigint, o_settled bigint
) LANGUAGE plpgsql AS $$
DECLARE
	i integer;
	s record;
BEGIN
	IF coalesce(cardinality(p_leases), 0) = 0 THEN
		-- Takes alone need not wait for their WAL flush: the settle that follows does, and a take
		-- lost with a crashed PostgreSQL was never answered.
		PERFORM set_config('synchronous_commit', 'off', true);
	END IF;
	FOR i IN 1 .. coalesce(cardinality(p_leases), 0) LOOP
		UPDATE quota_holds SET units = units - p_counts[i] WHERE id = p_leases[i] AND units >= p_counts[i];
		IF FOUND THEN
			o_account := NULL; o_api := NULL; o_avail := NULL; o_quota := NULL; o_period := NULL; o_granted := NULL; o_lease := NULL;
			o_settled := p_leases[i];
			RETURN NEXT;
		END IF;
	END LOOP;
	o_settled := NULL;
	FOR i IN 1 .. coalesce(cardinality(p_accounts), 0) LOOP
		o_account := p_accounts[i]; o_api := p_apis[i]; o_lease := NULL; o_granted := 0;
		SELECT sub.monthly_quota, sub.remaining, sub.renews_at INTO s
			FROM subscriptions sub WHERE sub.account_id = p_accounts[i] AND sub.api = p_apis[i] FOR UPDATE;
		IF NOT FOUND THEN
			o_avail := NULL; o_quota := NULL; o_period := NULL;
			RETURN NEXT;
			CONTINUE;
		END IF;
		o_quota := s.monthly_quota;
		IF s.renews_at <= p_now THEN
			o_avail := greatest(s.monthly_quota, 0); o_period := p_next;
		ELSE
			o_avail := greatest(s.remaining, 0); o_period := s.renews_at;
		END IF;
		o_granted := least(o_avail, p_wanted[i]);
		-- Units leased ahead to this instance, only while plenty would be left for the others.
		IF p_extra[i] > 0 AND o_avail - o_granted >= p_extra[i] + p_low THEN
			o_granted := o_granted + p_extra[i];
		END IF;
		IF o_granted > 0 THEN
			UPDATE subscriptions SET remaining = o_avail - o_granted, renews_at = o_period
				WHERE account_id = p_accounts[i] AND api = p_apis[i];
			INSERT INTO quota_holds AS h (instance_id, account_id, api, renews_at, units)
				VALUES (p_instance, p_accounts[i], p_apis[i], o_period, o_granted)
				ON CONFLICT (instance_id, account_id, api, renews_at) DO UPDATE SET units = h.units + excluded.units
				RETURNING h.id INTO o_lease;
		END IF;
		RETURN NEXT;
	END LOOP;
END
$$;
