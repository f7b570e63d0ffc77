import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { accounts, apiKeys, workspaceLinks } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import type { Account } from './accounts.js';
import type { Attribution, AuditLog } from './audit-log.js';

export type BotPlatform = 'slack' | 'discord';

export interface WorkspaceRef {
  platform: BotPlatform;
  /** Slack team id or Discord guild id. */
  workspaceId: string;
}

/** Which account a Slack workspace or Discord server uses. */
export interface WorkspaceLinks {
  /** Links (or re-links) the workspace to the key's account (audit `workspace.linked`, with the chat user who ran `/link`). */
  link(ref: WorkspaceRef, key: { accountId: number; keyId: number; keyPrefix: string }, by: Attribution): Promise<void>;
  /** The account the workspace uses, or undefined when it is not linked or its key was revoked. */
  accountFor(ref: WorkspaceRef): Promise<Account | undefined>;
  unlink(ref: WorkspaceRef): Promise<boolean>;
}

/**
 * The `/link` store: which account a Slack workspace or Discord server uses. Only the id of
 * the API key row is kept; a revoked or deleted key makes the workspace unlinked again.
 */
export function createWorkspaceLinks(db: Database, clock: Clock, audit: AuditLog): WorkspaceLinks {
  return {
    async link(ref: WorkspaceRef, key: { accountId: number; keyId: number; keyPrefix: string }, by: Attribution): Promise<void> {
      const linkedBy = by.actor.id;
      await db.transaction(async (tx) => {
        await tx
          .insert(workspaceLinks)
          .values({ platform: ref.platform, workspaceId: ref.workspaceId, accountId: key.accountId, apiKeyId: key.keyId, linkedBy })
          .onConflictDoUpdate({
            target: [workspaceLinks.platform, workspaceLinks.workspaceId],
            set: { accountId: key.accountId, apiKeyId: key.keyId, linkedBy, createdAt: clock() },
          });
        await audit.record(tx, {
          accountId: key.accountId,
          actor: by.actor,
          action: 'workspace.linked',
          target: `workspace:${ref.platform}/${ref.workspaceId} key:${key.keyId} ${key.keyPrefix}`,
        });
      });
    },

    /** The account the workspace uses, or undefined when it is not linked or its key was revoked. */
    async accountFor(ref: WorkspaceRef): Promise<Account | undefined> {
      const [row] = await db
        .select({ id: accounts.id, email: accounts.email })
        .from(workspaceLinks)
        .innerJoin(apiKeys, eq(apiKeys.id, workspaceLinks.apiKeyId))
        .innerJoin(accounts, eq(accounts.id, workspaceLinks.accountId))
        .where(and(eq(workspaceLinks.platform, ref.platform), eq(workspaceLinks.workspaceId, ref.workspaceId), isNull(apiKeys.revokedAt)));
      return row;
    },

    async unlink(ref: WorkspaceRef): Promise<boolean> {
      const removed = await db
        .delete(workspaceLinks)
        .where(and(eq(workspaceLinks.platform, ref.platform), eq(workspaceLinks.workspaceId, ref.workspaceId)))
        .returning({ id: workspaceLinks.workspaceId });
      return removed.length > 0;
    },
  };
}
