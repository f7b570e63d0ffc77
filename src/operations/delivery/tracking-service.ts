import { AppError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { mayBeUnknownParcel, type Tracker } from '../../providers/tracker.js';
import { MAX_DETECT_CANDIDATES, rankCarriers, type RankedCarrier } from './carrier-detect.js';
import { findCarrier, refuseRetired } from './carriers.js';
import type { RateLimiter } from '../../platform/rate-limiter.js';
import type { CachedTracking, TrackingCache } from './tracking-cache.js';
import { isDelivered, toTrackingResult, type TrackingResult } from './tracking-result.js';
import { boundedCache } from '../../bounded-cache.js';

/** SPEC §7 rule 4: in-progress parcels are served from the cache for two hours. */
export const IN_PROGRESS_TTL_MS = 2 * 3600_000;
/**
 * Hot parcels are also kept in this process for a few seconds (delivered ones for good), so
 * a burst of lookups reads the database once; short enough that another instance's refresh
 * (the watch poller) is seen almost at once.
 */
const MEMORY_TTL_MS = 5000;

export interface TrackingServiceDeps {
  tracker: Tracker;
  cache: TrackingCache;
  limiter: RateLimiter;
  clock?: () => Date;
  logger: Logger;
  /** Entries kept in this process (default 5,000). */
  memoryEntries?: number;
}

/** How long a candidate that did not know a number is not asked about it again (detection only). */
const MISS_TTL_MS = 10 * 60_000;

/** A candidate carrier as the answer shows it (`carrier_candidates`). */
export interface CarrierCandidate {
  id: string;
  name: string;
  name_ko: string;
  /** 0–1, from the number's format alone. */
  confidence: number;
  /** `published`: the carrier (or UPU) states the format; `inferred`: observed only. */
  rule: 'published' | 'inferred';
  /** What its lookup found: true, false, or null when it was not asked (or failed). */
  found: boolean | null;
}

export interface DetectedParcel {
  parcel: TrackedParcel;
  /** Present when several candidates knew the number. */
  candidates?: CarrierCandidate[];
  /** The workspace's remembered correction answered. */
  remembered?: boolean;
}

/** 404 of a detection: no candidate knew the number; the ranked candidates come with it (`carrier_candidates`). */
export function notFoundAtCandidates(shown: CarrierCandidate[]): AppError {
  const tried = shown.filter((candidate) => candidate.found === false).map((candidate) => candidate.name_ko);
  return new AppError(
    'NOT_FOUND',
    `${tried.join(', ')}에서 이 운송장 번호를 찾지 못했습니다. 택배사(carrier_id)를 지정해 다시 조회하세요.`,
    { carrier_candidates: shown },
  );
}

function candidateView(candidate: RankedCarrier, found: boolean | null): CarrierCandidate {
  const carrier = findCarrier(candidate.carrierId)!;
  return {
    id: carrier.id,
    name: carrier.name,
    name_ko: carrier.name_ko,
    confidence: Math.round(candidate.confidence * 1000) / 1000,
    rule: candidate.basis,
    found,
  };
}

export interface TrackOptions {
  /** Ask the upstream even when the cache holds an answer (the watch poller), then refresh the cache. */
  fresh?: boolean;
  logger?: Logger;
}

export interface TrackedParcel extends TrackingResult {
  /** Where the answer came from: `cache` costs no upstream call. */
  source: 'cache' | 'upstream';
  fetchedAt: Date;
}

/**
 * Parcel lookups for the operation and the watch poller: the shared database cache (2 h
 * while moving, forever once delivered), then one upstream call per parcel at a time in
 * this process (concurrent lookups share it), taken under the cross-instance rate limit.
 * Errors: 400 unknown carrier or number refused, 404 unknown parcel, 429 TRACKER_BUSY, 502.
 */
export function createTrackingService(deps: TrackingServiceDeps) {
  const clock = deps.clock ?? (() => new Date());
  const inFlight = new Map<string, Promise<TrackedParcel>>();
  const memory = boundedCache<string, CachedTracking & { readAt: number }>(deps.memoryEntries ?? 5000);
  const counters = { upstreamCalls: 0, upstreamRequests: 0, cacheHits: 0, coalesced: 0 };
  // Candidates that did not know a number, so a repeated detection does not ask them again at once.
  const misses = boundedCache<string, true>(deps.memoryEntries ?? 5000, { ttl: MISS_TTL_MS, perf: { now: () => clock().getTime() } });

  async function fetchUpstream(carrierId: string, trackId: string, logger: Logger): Promise<TrackedParcel> {
    const carrier = findCarrier(carrierId);
    if (!carrier) throw new AppError('INVALID_REQUEST', '지원하지 않는 택배사입니다.', { field: 'carrier_id' });
    counters.upstreamCalls++;
    // Every page is one upstream request, and each takes a slot of the shared rate limit.
    const beforeRequest = async () => {
      await deps.limiter.acquire();
      counters.upstreamRequests++;
    };
    const parcel = await deps.tracker.track(carrierId, trackId, { logger, beforeRequest });
    const result = toTrackingResult(carrier, parcel);
    const fetchedAt = clock();
    const entry = { result, delivered: isDelivered(result), fetchedAt };
    memory.set(keyOf(carrierId, trackId), { ...entry, readAt: fetchedAt.getTime() });
    // A failed cache write must not fail a lookup that was answered.
    await deps.cache.put(carrierId, trackId, entry).catch((error: unknown) => {
      logger.error({ err: error }, 'tracking cache write failed');
    });
    return { ...result, source: 'upstream', fetchedAt };
  }

  const fresh = (entry: CachedTracking, now: number) => entry.delivered || now - entry.fetchedAt.getTime() < IN_PROGRESS_TTL_MS;

  /** This process's copy, if read in the last seconds (or delivered). */
  function heldEntry(key: string, now: number): CachedTracking | undefined {
    const held = memory.get(key);
    return held && fresh(held, now) && (held.delivered || now - held.readAt < MEMORY_TTL_MS) ? held : undefined;
  }

  /** The stored answer while it is valid: this process's copy if read in the last seconds, else the database's. */
  async function cachedEntry(carrierId: string, trackId: string): Promise<CachedTracking | undefined> {
    const now = clock().getTime();
    const key = keyOf(carrierId, trackId);
    const held = heldEntry(key, now);
    if (held) return held;
    const stored = await deps.cache.get(carrierId, trackId);
    // An upstream call that ended while the database was read is no longer in flight to share,
    // but left its answer here: without this look, a slow read made a second upstream call.
    if (!stored || !fresh(stored, now)) return heldEntry(key, clock().getTime());
    memory.set(key, { ...stored, readAt: now });
    return stored;
  }

  function shared(carrierId: string, trackId: string, logger: Logger): Promise<TrackedParcel> {
    const key = keyOf(carrierId, trackId);
    const running = inFlight.get(key);
    if (running) {
      counters.coalesced++;
      return running;
    }
    const call = fetchUpstream(carrierId, trackId, logger).finally(() => inFlight.delete(key));
    inFlight.set(key, call);
    return call;
  }

  return {
    async track(carrierId: string, trackId: string, options: TrackOptions = {}): Promise<TrackedParcel> {
      const logger = options.logger ?? deps.logger;
      refuseRetired(carrierId);
      if (!options.fresh) {
        const cached = await cachedEntry(carrierId, trackId);
        if (cached) {
          counters.cacheHits++;
          // The carrier record comes from the shipped data, so a corrected name or number shows on old entries too.
          const carrier = findCarrier(carrierId) ?? cached.result.carrier;
          return { ...cached.result, carrier, source: 'cache', fetchedAt: cached.fetchedAt };
        }
      }
      return shared(carrierId, trackId, logger);
    },
    /**
     * Auto-detection (carrier-detect.ts): a remembered correction is asked first; then the top
     * ranked candidates are asked in parallel, each through the cache and the shared rate limit
     * (so a burst of detections stays within it), and a candidate that did not know the number is
     * remembered for a few minutes. The parcel of the best-ranked carrier that knows it answers;
     * `candidates` (ranked, with confidence and what each lookup found) come with it when several
     * knew it, and with the 404 when none did. An outage with nothing found stops it (502, refunded).
     */
    async detect(trackId: string, options: TrackOptions & { remembered?: string } = {}): Promise<DetectedParcel> {
      const ranked = rankCarriers(trackId);
      if (options.remembered && findCarrier(options.remembered)) {
        const remembered = await this.lookupCandidate(options.remembered, trackId, options);
        if (remembered.parcel) return { parcel: remembered.parcel, remembered: true };
      }
      const asked = ranked.filter((candidate) => candidate.carrierId !== options.remembered).slice(0, MAX_DETECT_CANDIDATES);
      if (asked.length === 0) {
        throw new AppError('INVALID_REQUEST', '운송장 번호 형식만으로는 택배사를 알 수 없습니다. 택배사(carrier_id)를 함께 보내세요.', {
          field: 'carrier_id',
        });
      }
      const outcomes = await Promise.all(asked.map((candidate) => this.lookupCandidate(candidate.carrierId, trackId, options)));
      const found = outcomes.flatMap((outcome) => (outcome.parcel ? [outcome.parcel] : []));
      const shown = ranked.slice(0, Math.max(MAX_DETECT_CANDIDATES + 2, asked.length)).map((candidate) => {
        const index = asked.indexOf(candidate);
        const outcome = index >= 0 ? outcomes[index] : undefined;
        return candidateView(candidate, outcome ? (outcome.parcel ? true : outcome.error ? null : false) : null);
      });
      if (found.length === 1) return { parcel: found[0]! };
      if (found.length > 1) return { parcel: found[0]!, candidates: shown };
      const failure = outcomes.find((outcome) => outcome.error)?.error;
      if (failure) throw failure;
      throw notFoundAtCandidates(shown);
    },
    /** One candidate of a detection: its parcel, or that it does not know the number (remembered briefly), or a failure. */
    async lookupCandidate(
      carrierId: string,
      trackId: string,
      options: TrackOptions,
    ): Promise<{ parcel?: TrackedParcel; error?: AppError }> {
      const key = keyOf(carrierId, trackId);
      if (misses.has(key)) return {};
      try {
        return { parcel: await this.track(carrierId, trackId, options) };
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        if (error.code === 'NOT_FOUND' || error.code === 'INVALID_REQUEST') {
          misses.set(key, true);
          return {};
        }
        // A self-hosted tracker answers "Internal error" for an unknown number too: not remembered, but not fatal either.
        return { error };
      }
    },
    /** The older interface: candidates asked as given; the first found answers (kept for the watch creation). */
    async trackDetected(_candidates: readonly string[], trackId: string, options: TrackOptions = {}): Promise<TrackedParcel> {
      return (await this.detect(trackId, options)).parcel;
    },
    /** Counts since start (bench and tests): lookups and requests (pages) sent upstream, cache hits, lookups that joined a running call. */
    stats: () => ({ ...counters }),
  };
}

function keyOf(carrierId: string, trackId: string): string {
  return `${carrierId}\u0000${trackId}`;
}

export type TrackingService = ReturnType<typeof createTrackingService>;
