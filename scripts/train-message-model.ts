/**
 * `npm run train:messages`: trains the message model (src/operations/url-scan/model/) from
 * ../shared/data/messages-kr — its scam and ordinary messages and its legitimate notification
 * texts — and calibrates its levels on out-of-fold scores. Writes the weights (`.bin`) and the
 * metadata (`.json`, with the data's citation); no message text is written.
 *
 *   npx tsx scripts/train-message-model.ts [--out=path/message-model.json]
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { projectPath } from '../src/paths.js';
import { levelsFor, outOfFold, trainOn } from './lib/message-training.js';
import {
  MESSAGES_DIR,
  messagesAvailable,
  readLabelledMessages,
  readNotifications,
  type LabelledMessage,
  type Notification,
} from './lib/messages-kr.js';

export const DEFAULT_MODEL_PATH = projectPath('src', 'operations', 'url-scan', 'model', 'message-model.json');

export interface TrainingData {
  messages: LabelledMessage[];
  notifications: Notification[];
}

export async function trainAndWrite(
  out: string,
  data: TrainingData = { messages: readLabelledMessages(), notifications: readNotifications() },
  log: (line: string) => void = console.log,
): Promise<void> {
  const { messages, notifications } = data;
  log(`read ${messages.length} messages (${messages.filter((m) => m.scam).length} scams) and ${notifications.length} notifications`);
  const started = performance.now();
  const { levels, calibration } = levelsFor(outOfFold(messages, notifications));
  const model = trainOn(messages, notifications).withLevels(levels, calibration);
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out.replace(/\.json$/, '.bin'), model.weightBytes());
  await writeFile(out, `${JSON.stringify(model.meta, null, 2)}\n`);
  log(`levels ${JSON.stringify(levels)}`);
  log(`calibration ${JSON.stringify(calibration)}`);
  log(`wrote ${out} in ${Math.round(performance.now() - started)} ms`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (!messagesAvailable()) {
    console.error(`messages-kr not found at ${MESSAGES_DIR}: nothing to train on`);
    process.exit(1);
  }
  const out = process.argv.find((arg) => arg.startsWith('--out='))?.slice(6) ?? DEFAULT_MODEL_PATH;
  await trainAndWrite(out);
}
