import { projectPath } from '../../../paths.js';
import type { LearnedModelInfo } from '../../../platform/learned-models.js';
import { MessageModel } from './message-model.js';

/** The model shipped with the service (`npm run train:messages` writes it). */
export const SHIPPED_MESSAGE_MODEL = projectPath('src', 'operations', 'url-scan', 'model', 'message-model.json');

/**
 * The message model at `path` (`MESSAGE_MODEL`), else the shipped one. A model that cannot be read
 * stops the start with the file named: the message check never falls back to rules alone unsaid.
 */
export async function loadMessageModel(path: string | undefined): Promise<MessageModel> {
  const file = path ?? SHIPPED_MESSAGE_MODEL;
  try {
    return await MessageModel.load(file);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(`${path ? 'MESSAGE_MODEL' : 'the shipped message model'} (${file}) could not be loaded: ${why}`);
  }
}

/** The message model as `/url/lists` and `/healthz/ready` list it (CONTRACT §5 `models`). */
export function describeMessageModel(model: MessageModel): LearnedModelInfo {
  const { scam, ordinary, notifications } = model.meta.examples;
  return { name: 'message-model', trained: true, examples: scam + ordinary + notifications, trained_at: model.meta.trainedAt };
}
