import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../../db/client.js';
import { linkGuardAllowedHosts, linkGuardChannels, linkGuardIncidents } from '../../../db/schema.js';
import type { Clock } from '../../clock.js';
import type { BotPlatform } from '../../platform/workspace-links.js';

export type GuardMode = 'warn' | 'hide';
export type GuardLocale = 'ko' | 'en';
/** What the guard did about a harmful link. */
export type GuardAction = 'warned' | 'hidden' | 'warned_not_hidden' | 'not_warned';

export interface ChannelRef {
  platform: BotPlatform;
  workspaceId: string;
  channelId: string;
}

export interface GuardedChannel extends ChannelRef {
  mode: GuardMode;
  locale: GuardLocale;
  enabledBy: string;
  quotaNoticeAt: Date | null;
  /** `/guard messages on`: every message's text is judged too, link or not (issue 50). */
  messages: boolean;
  createdAt: Date;
}

export interface IncidentInput extends ChannelRef {
  accountId: number | undefined;
  posterId: string;
  urlHash: string;
  host: string;
  category: string;
  reason: string;
  action: GuardAction;
}

export interface Incident {
  id: number;
  platform: string;
  workspace_id: string;
  channel_id: string;
  poster_id: string;
  url_hash: string;
  host: string;
  category: string;
  reason: string;
  action: string;
  created_at: string;
}

/** Incidents are kept this long (issue 40: 90 days). */
export const INCIDENT_RETENTION_DAYS = 90;
/** A workspace's false-alarm list stays small: a longer one would be a bypass, not a correction. */
export const MAX_ALLOWED_HOSTS = 500;

/** The link guard's rows: guarded channels, allowed hosts, incidents. */
export function createGuardStore(db: Database, clock: Clock) {
  const channelWhere = (ref: ChannelRef) =>
    and(
      eq(linkGuardChannels.platform, ref.platform),
      eq(linkGuardChannels.workspaceId, ref.workspaceId),
      eq(linkGuardChannels.channelId, ref.channelId),
    );
  const toIncident = (row: typeof linkGuardIncidents.$inferSelect): Incident => ({
    id: row.id,
    platform: row.platform,
    workspace_id: row.workspaceId,
    channel_id: row.channelId,
    poster_id: row.posterId,
    url_hash: row.urlHash,
    host: row.host,
    category: row.category,
    reason: row.reason,
    action: row.action,
    created_at: row.createdAt.toISOString(),
  });

  return {
    async channel(ref: ChannelRef): Promise<GuardedChannel | undefined> {
      const [row] = await db.select().from(linkGuardChannels).where(channelWhere(ref));
      return row ? { ...row, platform: ref.platform, mode: row.mode as GuardMode, locale: row.locale as GuardLocale } : undefined;
    },

    /** Turns the guard on (or changes its mode); a renewed `on` forgets an old quota notice. */
    async enable(ref: ChannelRef, settings: { mode?: GuardMode; locale: GuardLocale; by: string }, tx: Executor = db): Promise<void> {
      await tx
        .insert(linkGuardChannels)
        .values({ ...ref, mode: settings.mode ?? 'warn', locale: settings.locale, enabledBy: settings.by, createdAt: clock() })
        .onConflictDoUpdate({
          target: [linkGuardChannels.platform, linkGuardChannels.workspaceId, linkGuardChannels.channelId],
          set: { ...(settings.mode ? { mode: settings.mode } : {}), locale: settings.locale, quotaNoticeAt: null },
        });
    },

    async setMode(ref: ChannelRef, mode: GuardMode, tx: Executor = db): Promise<boolean> {
      const rows = await tx.update(linkGuardChannels).set({ mode }).where(channelWhere(ref)).returning({ id: linkGuardChannels.channelId });
      return rows.length > 0;
    },

    async setMessages(ref: ChannelRef, messages: boolean, tx: Executor = db): Promise<boolean> {
      const rows = await tx
        .update(linkGuardChannels)
        .set({ messages })
        .where(channelWhere(ref))
        .returning({ id: linkGuardChannels.channelId });
      return rows.length > 0;
    },

    async disable(ref: ChannelRef, tx: Executor = db): Promise<boolean> {
      const rows = await tx.delete(linkGuardChannels).where(channelWhere(ref)).returning({ id: linkGuardChannels.channelId });
      return rows.length > 0;
    },

    /**
     * Claims the channel's one quota notice: true only for the first caller since the guard was
     * turned on or the quota last worked (a single statement, so two instances cannot both post it).
     */
    async claimQuotaNotice(ref: ChannelRef): Promise<boolean> {
      const rows = await db
        .update(linkGuardChannels)
        .set({ quotaNoticeAt: clock() })
        .where(and(channelWhere(ref), sql`${linkGuardChannels.quotaNoticeAt} IS NULL`))
        .returning({ id: linkGuardChannels.channelId });
      return rows.length > 0;
    },

    async clearQuotaNotice(ref: ChannelRef): Promise<void> {
      await db.update(linkGuardChannels).set({ quotaNoticeAt: null }).where(channelWhere(ref));
    },

    async allowedHosts(platform: BotPlatform, workspaceId: string): Promise<string[]> {
      const rows = await db
        .select({ host: linkGuardAllowedHosts.host })
        .from(linkGuardAllowedHosts)
        .where(and(eq(linkGuardAllowedHosts.platform, platform), eq(linkGuardAllowedHosts.workspaceId, workspaceId)))
        .limit(MAX_ALLOWED_HOSTS);
      return rows.map((row) => row.host);
    },

    /** Adds a host to the workspace's false-alarm list; false when the list is full. */
    async allow(platform: BotPlatform, workspaceId: string, host: string, by: string): Promise<boolean> {
      const current = await this.allowedHosts(platform, workspaceId);
      if (current.includes(host)) return true;
      if (current.length >= MAX_ALLOWED_HOSTS) return false;
      await db.insert(linkGuardAllowedHosts).values({ platform, workspaceId, host, addedBy: by, createdAt: clock() }).onConflictDoNothing();
      return true;
    },

    async record(incidents: IncidentInput[]): Promise<void> {
      if (incidents.length === 0) return;
      const now = clock();
      await db
        .insert(linkGuardIncidents)
        .values(incidents.map(({ accountId, ...rest }) => ({ ...rest, accountId: accountId ?? null, createdAt: now })));
    },

    /** The newest incidents of a workspace (`/guard log`). */
    async recentIn(platform: BotPlatform, workspaceId: string, limit: number): Promise<Incident[]> {
      const rows = await db
        .select()
        .from(linkGuardIncidents)
        .where(and(eq(linkGuardIncidents.platform, platform), eq(linkGuardIncidents.workspaceId, workspaceId)))
        .orderBy(desc(linkGuardIncidents.createdAt), desc(linkGuardIncidents.id))
        .limit(limit);
      return rows.map(toIncident);
    },

    /** The newest incidents of the workspaces linked to an account (the portal). */
    async recentFor(accountId: number, limit: number): Promise<Incident[]> {
      const rows = await db
        .select()
        .from(linkGuardIncidents)
        .where(eq(linkGuardIncidents.accountId, accountId))
        .orderBy(desc(linkGuardIncidents.createdAt), desc(linkGuardIncidents.id))
        .limit(limit);
      return rows.map(toIncident);
    },

    /** Deletes incidents older than the retention (housekeeping); returns how many went. */
    async purge(): Promise<number> {
      const cutoff = new Date(clock().getTime() - INCIDENT_RETENTION_DAYS * 24 * 60 * 60 * 1000);
      const rows = await db
        .delete(linkGuardIncidents)
        .where(lt(linkGuardIncidents.createdAt, cutoff))
        .returning({ id: linkGuardIncidents.id });
      return rows.length;
    },
  };
}

export type GuardStore = ReturnType<typeof createGuardStore>;
