-- On a database server, settles commit without waiting for their WAL flush, as takes already
-- did: the wait held every answered call of a batch for a disk flush it does not need against a
-- crash of the service's process. The embedded database dies with that process: there settles
-- still wait (`p_flush_settles`).
-- The ten-argument version stays beside it: instances of the previous release, still running on
-- the same PostgreSQL while the new one starts, keep calling it until they are replaced.
CREATE FUNCTION "quota_take_settle"(
	p_instance integer, p_now timestamptz, p_next timestamptz,
	p_accounts integer[], p_apis text[], p_wanted integer[], p_extra integer[], p_low integer,
	p_leases bigint[], p_counts integer[], p_flush_settles boolean
) RETURNS TABLE (
	o_account integer, o_api text, o_avail integer, o_quota integer, o_period timestamptz, o_granted integer, o_lease bigint, o_settled bigint
) LANGUAGE plpgsql AS $$
DECLARE
	i integer;
	s record;
BEGIN
	-- A take alone never waits for its WAL flush (a take lost with a crashed database was never
	-- answered); settles wait only when asked to (see src/platform/quota-hold-store.ts).
	IF coalesce(cardinality(p_leases), 0) = 0 OR NOT p_flush_settles THEN
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
