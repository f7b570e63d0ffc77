/**
 * `npm run eval:messages`: the message check measured the way users meet it. For each part judged,
 * a model trained without it (scripts/lib/message-training.ts) is written to a temporary file and
 * the service is started as `npm start` starts it (environment only: `MESSAGE_MODEL`, the shared
 * harmful-URL lists as feeds, no LLM), and every message of the part goes through
 * `POST /api/v1/url/scan`:
 *
 * - messages: 5 folds by a hash of `index` (each judged by a model of the other four, its levels
 *   calibrated without it); fold 4 is the one no tuning ever read, reported apart;
 * - legitimate notifications, by sender: each judged by a model trained without that sender.
 *
 *   npx tsx scripts/eval-messages.ts [--folds=0,1,2,3,4|none] [--senders=all|none] [--feeds=none]
 *
 * Figures go to docs/evaluations/ by hand, with the date and the machine. The data is read in
 * place from ../shared/data (its citation: scripts/lib/messages-kr.ts); no text is printed.
 */
import { access, cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hasLink, levelsFor, outOfFold, trainOn, type OutOfFold } from './lib/message-training.js';
import {
  foldOf,
  MESSAGES_DIR,
  messagesAvailable,
  readLabelledMessages,
  readNotifications,
  type LabelledMessage,
} from './lib/messages-kr.js';
import { startService, type ServiceProcess } from './lib/service-process.js';
import { sharedFeedsEnv } from './lib/shared-feeds.js';
import type { MessageModel } from '../src/operations/url-scan/model/message-model.js';

const args = new Map(process.argv.slice(2).map((arg) => arg.replace(/^--/, '').split('=') as [string, string]));
const FIRM = 0.9;

interface Judged {
  scam: boolean;
  link: boolean;
  smishing: boolean;
  firm: boolean;
}

async function main(): Promise<void> {
  if (!messagesAvailable()) {
    console.error(`messages-kr not found at ${MESSAGES_DIR}`);
    process.exit(1);
  }
  const messages = readLabelledMessages();
  const notifications = readNotifications();
  const folds = args.get('folds') === 'none' ? [] : (args.get('folds') ?? '0,1,2,3,4').split(',').map(Number);
  console.log(`scoring out of fold (12 models) for the levels…`);
  const oof = outOfFold(messages, notifications);
  const work = await mkdtemp(join(tmpdir(), 'eval-messages-'));
  const feeds = args.get('feeds') === 'none' ? undefined : await sharedFeedsEnv();
  const baseData = join(work, 'data-base');
  try {
    for (const fold of folds) {
      const trained = messages.filter((m) => foldOf(m.index) !== fold);
      const model = withLevelsWithout(trainOn(trained, notifications), oof, { fold });
      const judged = await throughTheDoor(
        work,
        baseData,
        feeds,
        model,
        messages.filter((m) => foldOf(m.index) === fold),
      );
      report(`fold ${fold}${fold === 4 ? ' (never read while tuning)' : ''}`, judged);
    }
    if (args.get('senders') !== 'none') {
      const total = { flagged: 0, firm: 0, count: 0 };
      for (const sender of new Set(notifications.map((n) => n.sender))) {
        const own = notifications.filter((n) => n.sender === sender);
        const model = withLevelsWithout(
          trainOn(
            messages,
            notifications.filter((n) => n.sender !== sender),
          ),
          oof,
          { sender },
        );
        const judged = await throughTheDoor(
          work,
          baseData,
          feeds,
          model,
          own.map((n, index) => ({ index, scam: false, text: n.text })),
        );
        const flagged = judged.filter((j) => j.smishing).length;
        const firm = judged.filter((j) => j.firm).length;
        Object.assign(total, { flagged: total.flagged + flagged, firm: total.firm + firm, count: total.count + own.length });
        console.log(`notifications of ${sender} (model trained without it): ${flagged}/${own.length} flagged, ${firm} firm`);
      }
      console.log(
        `notifications, all senders: ${total.flagged}/${total.count} flagged (${pct(total.flagged, total.count)}), ${total.firm} firm`,
      );
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** The levels from out-of-fold scores that leave out what is judged: the fold's messages, or the sender's texts. */
function withLevelsWithout(model: MessageModel, oof: OutOfFold, leaveOut: { fold?: number; sender?: string }): MessageModel {
  const scoped: OutOfFold = {
    scam: oof.scam.filter((s) => foldOf(s.index) !== leaveOut.fold),
    ordinary: oof.ordinary.filter((o) => foldOf(o.index) !== leaveOut.fold),
    notifications: oof.notifications.filter((n) => n.sender !== leaveOut.sender),
  };
  return model.withLevels(levelsFor(scoped).levels);
}

/** Starts the service with this model, sends every message through `/url/scan`, stops it. */
async function throughTheDoor(
  work: string,
  baseData: string,
  feeds: Record<string, string> | undefined,
  model: MessageModel,
  items: LabelledMessage[],
): Promise<Judged[]> {
  const modelPath = join(work, 'message-model.json');
  await writeFile(modelPath.replace(/\.json$/, '.bin'), model.weightBytes());
  await writeFile(modelPath, JSON.stringify(model.meta));
  // The first start loads the lists and trains the URL models; later starts begin from a copy of its data.
  const dataDir = join(work, `data-${Date.now()}`);
  const first = !(await exists(baseData));
  if (!first) await cp(baseData, dataDir, { recursive: true });
  const env = {
    DATA_DIR: first ? baseData : dataDir,
    MESSAGE_MODEL: modelPath,
    URL_RESCAN: 'off',
    WATCH_CRON: 'off',
    LOG_LEVEL: 'warn',
    ...feeds,
  };
  const service: ServiceProcess = await startService(env);
  try {
    const { apiKey } = await service.signUp({ subscribe: ['harmful-url-detection'] });
    const judged: Judged[] = new Array(items.length);
    let next = 0;
    const lane = async () => {
      while (next < items.length) {
        const at = next++;
        const item = items[at]!;
        const answer = await service.post('/api/v1/url/scan', { text: item.text.slice(0, 5000) }, apiKey);
        if (answer.status !== 200) throw new Error(`HTTP ${answer.status}: ${JSON.stringify(answer.body).slice(0, 200)}`);
        judged[at] = {
          scam: item.scam,
          link: hasLink(item.text),
          smishing: answer.body.is_smishing === true,
          firm: answer.body.score >= FIRM,
        };
      }
    };
    await Promise.all(Array.from({ length: 4 }, lane));
    return judged;
  } finally {
    await service.stop();
    if (!first) await rm(dataDir, { recursive: true, force: true, maxRetries: 5 });
  }
}

function report(name: string, judged: Judged[]): void {
  const scams = judged.filter((j) => j.scam);
  const ordinary = judged.filter((j) => !j.scam);
  const caught = (list: Judged[]) =>
    `${list.filter((j) => j.smishing).length}/${list.length} (${pct(list.filter((j) => j.smishing).length, list.length)})`;
  console.log(
    `${name}: scams caught ${caught(scams)}; without a link ${caught(scams.filter((j) => !j.link))}; with a link ${caught(scams.filter((j) => j.link))}; ` +
      `ordinary flagged ${ordinary.filter((j) => j.smishing).length}/${ordinary.length}, firm (guard) ${ordinary.filter((j) => j.firm).length}`,
  );
}

function pct(part: number, whole: number): string {
  return `${((100 * part) / Math.max(1, whole)).toFixed(1)} %`;
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

await main();
