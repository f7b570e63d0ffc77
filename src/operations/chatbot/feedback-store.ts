import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.js';
import { knowledgeFeedback, knowledgeWorkspaceSettings } from '../../../db/schema.js';

/** 👎s kept per account: the oldest go first, so storage stays bounded. */
export const MAX_FEEDBACK_PER_ACCOUNT = 500;
const MAX_QUESTION_CHARS = 2_000;

export interface FeedbackItem {
  id: number;
  question: string;
  scope: string | null;
  created_at: string;
}

/**
 * Questions whose answer someone marked 👎 in Slack or Discord (issue 39 item 5): the question
 * alone and where it was asked, never the answer, the asker or the thread, shown to the account
 * in the portal so someone can add the missing knowledge.
 */
export function createKnowledgeFeedback(db: Database) {
  return {
    async add(accountId: number, question: string, scope: string | null): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.insert(knowledgeFeedback).values({ accountId, question: [...question].slice(0, MAX_QUESTION_CHARS).join(''), scope });
        const [edge] = await tx
          .select({ id: knowledgeFeedback.id })
          .from(knowledgeFeedback)
          .where(eq(knowledgeFeedback.accountId, accountId))
          .orderBy(desc(knowledgeFeedback.id))
          .offset(MAX_FEEDBACK_PER_ACCOUNT)
          .limit(1);
        if (edge)
          await tx
            .delete(knowledgeFeedback)
            .where(and(eq(knowledgeFeedback.accountId, accountId), sql`${knowledgeFeedback.id} <= ${edge.id}`));
      });
    },

    /** The account's 👎 questions, newest first. */
    async list(accountId: number, limit = 50, before?: number): Promise<FeedbackItem[]> {
      const rows = await db
        .select()
        .from(knowledgeFeedback)
        .where(
          before
            ? and(eq(knowledgeFeedback.accountId, accountId), lt(knowledgeFeedback.id, before))
            : eq(knowledgeFeedback.accountId, accountId),
        )
        .orderBy(desc(knowledgeFeedback.id))
        .limit(limit);
      return rows.map((row) => ({ id: row.id, question: row.question, scope: row.scope, created_at: row.createdAt.toISOString() }));
    },

    /** Marks one as handled (the knowledge was added); false when the account has no such item. */
    async remove(accountId: number, id: number): Promise<boolean> {
      const gone = await db
        .delete(knowledgeFeedback)
        .where(and(eq(knowledgeFeedback.accountId, accountId), eq(knowledgeFeedback.id, id)))
        .returning({ id: knowledgeFeedback.id });
      return gone.length > 0;
    },
  };
}

export type KnowledgeFeedback = ReturnType<typeof createKnowledgeFeedback>;

/** How a saved thread names its authors: by role (질문자, 답변자 1…) or not at all. */
export type ThreadAuthors = 'roles' | 'none';

/** Per Slack workspace / Discord server settings of the knowledge bot. */
export function createKnowledgeSettings(db: Database) {
  return {
    async threadAuthors(platform: string, workspaceId: string): Promise<ThreadAuthors> {
      const [row] = await db
        .select({ value: knowledgeWorkspaceSettings.threadAuthors })
        .from(knowledgeWorkspaceSettings)
        .where(and(eq(knowledgeWorkspaceSettings.platform, platform), eq(knowledgeWorkspaceSettings.workspaceId, workspaceId)));
      return row?.value === 'none' ? 'none' : 'roles';
    },
    async setThreadAuthors(platform: string, workspaceId: string, value: ThreadAuthors): Promise<void> {
      await db
        .insert(knowledgeWorkspaceSettings)
        .values({ platform, workspaceId, threadAuthors: value })
        .onConflictDoUpdate({
          target: [knowledgeWorkspaceSettings.platform, knowledgeWorkspaceSettings.workspaceId],
          set: { threadAuthors: value },
        });
    },
  };
}

export type KnowledgeSettings = ReturnType<typeof createKnowledgeSettings>;
