import { readFileSync } from 'node:fs';
import { projectPath } from '../../src/paths.js';
import { MessageModel, type MessageModelMeta, type TrainOptions } from '../../src/operations/url-scan/model/message-model.js';
import { foldOf, FOLDS, MESSAGES_CITATION, type LabelledMessage, type Notification } from './messages-kr.js';

/** A legitimate notification counts as this many ordinary lines: they are few, and the hardest negatives. */
export const NOTIFICATION_WEIGHT = 100;

/** Levels' budgets: shares of messages the model never trained on allowed above each cut. */
export const BUDGETS = {
  /**
   * Called smishing: ordinary lines (target ≤ 0.3 %) and notifications of unseen senders (target
   * ≤ 1 %). Notifications get 2 %: scored with their own sender left out of training (a third of
   * them are one sender's), 1 % cost a tenth of the scams (docs/evaluations/2026-11-28-message-check.md).
   */
  likely: { ordinary: 0.0015, notifications: 0.02 },
  /** The guard warns unasked: ordinary lines (target ≤ 0.05 %), no notification. */
  firm: { ordinary: 0.0002, notifications: 0 },
  /** The LLM is asked from here (when configured). */
  uncertain: { ordinary: 0.01, notifications: 0.05 },
};

let written: string[] | undefined;

/** Notifications written for this project (scripts/data/written-notifications.txt): always trained on, never measured; read once. */
export function readWrittenNotifications(): string[] {
  written ??= readFileSync(projectPath('scripts', 'data', 'written-notifications.txt'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'))
    .map((line) => line.replace(/\\n/g, '\n'));
  return written;
}

export function trainOn(
  messages: readonly LabelledMessage[],
  notifications: readonly Notification[],
  options?: TrainOptions,
): MessageModel {
  const senders = new Set(notifications.map((n) => n.sender)).size;
  const extra = readWrittenNotifications();
  return MessageModel.train(
    [
      ...messages.map((m) => ({ text: m.text, scam: m.scam })),
      ...[...notifications.map((n) => n.text), ...extra].map((text) => ({ text, scam: false, weight: NOTIFICATION_WEIGHT })),
    ],
    {
      name: 'message-model',
      trainedAt: new Date().toISOString(),
      examples: {
        scam: messages.filter((m) => m.scam).length,
        ordinary: messages.filter((m) => !m.scam).length,
        notifications: notifications.length + extra.length,
      },
      levels: { uncertain: 0.5, likely: 0.5, firm: 0.5 },
      data: `messages-kr part a: ${messages.length} messages and ${notifications.length} legitimate notification texts of ${senders} senders; ${extra.length} notification texts written for this project (scripts/data/written-notifications.txt)`,
      citation: MESSAGES_CITATION,
    },
    options,
  );
}

export interface OutOfFold {
  scam: { score: number; index: number; link: boolean }[];
  ordinary: { score: number; index: number }[];
  /** Each sender's texts scored by a model trained without that sender. */
  notifications: { sender: string; score: number }[];
}

/**
 * Scores of messages a model did not train on: each fold by a model of the other folds, each
 * sender's notifications by a model trained without that sender. The evaluation filters them to
 * leave its judged part out of the calibration (scripts/eval-messages.ts).
 */
export function outOfFold(messages: readonly LabelledMessage[], notifications: readonly Notification[], options?: TrainOptions): OutOfFold {
  const result: OutOfFold = { scam: [], ordinary: [], notifications: [] };
  const folds = [...new Set(messages.map((m) => foldOf(m.index)))];
  for (const fold of folds) {
    const model = trainOn(
      messages.filter((m) => foldOf(m.index) !== fold),
      notifications,
      options,
    );
    for (const m of messages.filter((m) => foldOf(m.index) === fold)) {
      const score = model.predict(m.text);
      if (m.scam) result.scam.push({ score, index: m.index, link: hasLink(m.text) });
      else result.ordinary.push({ score, index: m.index });
    }
  }
  for (const sender of new Set(notifications.map((n) => n.sender))) {
    const model = trainOn(
      messages,
      notifications.filter((n) => n.sender !== sender),
      options,
    );
    for (const n of notifications.filter((n) => n.sender === sender)) result.notifications.push({ sender, score: model.predict(n.text) });
  }
  return result;
}

/** The lowest cut that keeps both negative sets within their budgets (strictly above the cut is flagged). */
function cutFor(oof: OutOfFold, budget: { ordinary: number; notifications: number }): number {
  const above = (scores: number[], share: number) => {
    const sorted = [...scores].sort((a, b) => b - a);
    const allowed = Math.floor(sorted.length * share);
    return sorted[allowed] ?? 0;
  };
  return Math.max(
    above(
      oof.ordinary.map((o) => o.score),
      budget.ordinary,
    ),
    above(
      oof.notifications.map((n) => n.score),
      budget.notifications,
    ),
  );
}

export function levelsFor(oof: OutOfFold): { levels: MessageModelMeta['levels']; calibration: Record<string, unknown> } {
  const likely = cutFor(oof, BUDGETS.likely);
  const firm = Math.max(likely, cutFor(oof, BUDGETS.firm));
  const uncertain = Math.min(likely, cutFor(oof, BUDGETS.uncertain));
  const rate = (scores: number[], cut: number) => scores.filter((s) => s > cut).length / Math.max(1, scores.length);
  const at = (cut: number) => ({
    scam_caught: rate(
      oof.scam.map((s) => s.score),
      cut,
    ),
    ordinary_flagged: rate(
      oof.ordinary.map((o) => o.score),
      cut,
    ),
    notifications_flagged: rate(
      oof.notifications.map((n) => n.score),
      cut,
    ),
  });
  return {
    levels: { uncertain, likely, firm },
    calibration: {
      method: `out-of-fold scores: ${FOLDS} folds by a hash of index; notifications by sender (trained without the sender)`,
      likely: at(likely),
      firm: at(firm),
      uncertain: at(uncertain),
    },
  };
}

/** Whether a message carries a link as written (also broken ones such as `bit.ly/ 2ab`). */
export function hasLink(text: string): boolean {
  return /https?:|www\.|\b[a-z0-9-]+\.(?:com|net|kr|ly|gl|do|me|io|xyz|top|site|shop|live|info|cc|la|to|in|be)\b/i.test(text);
}
