import { and, desc, eq, gte, inArray, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.js';
import { auditEvents } from '../../db/schema.js';
import type { Clock } from '../clock.js';

/** CONTRACT §3 Teams: what the audit log records. */
export const AUDIT_ACTIONS = [
  'key.created',
  'key.renamed',
  'key.rotated',
  'key.revoked',
  'subscription.changed',
  'member.invited',
  'member.joined',
  'member.role_changed',
  'member.removed',
  'password.changed',
  'workspace.linked',
  'guard.changed',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * Who acted: a signed-in member (`id` the member id, `label` their e-mail), an API key (`id` the
 * key id, `label` its prefix: never the key), a Slack or Discord user (`id` the platform user id),
 * or the service itself.
 */
export interface AuditActor {
  kind: 'member' | 'api_key' | 'slack' | 'discord' | 'system';
  id: string;
  label: string;
}

/** Who asks for a change and from where: what the audit row of the change says. */
export interface Attribution {
  actor: AuditActor;
  ip?: string | undefined;
}

/** The service acting on its own (a migration, a test's set-up): no person to name. */
export const SYSTEM: Attribution = { actor: { kind: 'system', id: 'service', label: 'AI Utility Hub' } };

export interface AuditEntry {
  accountId: number;
  actor: AuditActor;
  action: AuditAction;
  /** What was acted on, as `kind:id` and a readable name (`key:12 laptop`, `channel:slack/T1/C2`): never a secret or message text. */
  target: string;
  /** The client address of an HTTP request; none for chat and the service. */
  ip?: string | undefined;
}

export interface AuditEvent {
  id: number;
  at: string;
  actor: AuditActor;
  action: AuditAction;
  target: string;
  ip: string | null;
}

export interface AuditFilter {
  from?: Date | undefined;
  /** Exclusive. */
  to?: Date | undefined;
  action?: AuditAction | undefined;
  /** Newest first, at most this many. */
  limit: number;
}

/** Kept this long, then purged by housekeeping (the trigger refuses an earlier delete). */
export const AUDIT_RETENTION_DAYS = 365;
const DAY_MS = 86_400_000;

/** The audit log (issue 48): appended in the transaction of the change it records; read and exported by owners and admins. */
export interface AuditLog {
  /**
   * Appends one event through `executor`: pass the transaction that makes the change, so the
   * change and its record commit or roll back together.
   */
  record(executor: Executor, entry: AuditEntry): Promise<void>;
  /** A team's events, newest first. */
  list(accountId: number, filter: AuditFilter): Promise<AuditEvent[]>;
  /** Deletes events past their year, a batch at a time (housekeeping); returns how many went. */
  purgeExpired(batch?: number): Promise<number>;
}

export function createAuditLog(db: Database, clock: Clock): AuditLog {
  return {
    async record(executor: Executor, entry: AuditEntry): Promise<void> {
      await executor.insert(auditEvents).values({
        accountId: entry.accountId,
        at: clock(),
        actorKind: entry.actor.kind,
        actorId: entry.actor.id,
        actorLabel: entry.actor.label.slice(0, 200),
        action: entry.action,
        target: entry.target.slice(0, 300),
        ip: entry.ip ?? null,
      });
    },

    async list(accountId: number, filter: AuditFilter): Promise<AuditEvent[]> {
      const conditions: SQL[] = [eq(auditEvents.accountId, accountId)];
      if (filter.from) conditions.push(gte(auditEvents.at, filter.from));
      if (filter.to) conditions.push(lt(auditEvents.at, filter.to));
      if (filter.action) conditions.push(eq(auditEvents.action, filter.action));
      const rows = await db
        .select()
        .from(auditEvents)
        .where(and(...conditions))
        .orderBy(desc(auditEvents.at), desc(auditEvents.id))
        .limit(filter.limit);
      return rows.map((row) => ({
        id: row.id,
        at: row.at.toISOString(),
        actor: { kind: row.actorKind as AuditActor['kind'], id: row.actorId, label: row.actorLabel },
        action: row.action as AuditAction,
        target: row.target,
        ip: row.ip,
      }));
    },

    async purgeExpired(batch = 10_000): Promise<number> {
      const cutoff = new Date(clock().getTime() - AUDIT_RETENTION_DAYS * DAY_MS - DAY_MS);
      // Past a year by the service's clock and by the database's, whose trigger holds the same line.
      const expired = db
        .select({ id: auditEvents.id })
        .from(auditEvents)
        .where(and(lte(auditEvents.at, cutoff), sql`${auditEvents.at} < now() - interval '1 year'`))
        .limit(batch);
      const deleted = await db.delete(auditEvents).where(inArray(auditEvents.id, expired)).returning({ id: auditEvents.id });
      return deleted.length;
    },
  };
}
