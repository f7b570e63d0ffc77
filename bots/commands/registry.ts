import { bizcheckCommand } from './bizcheck.js';
import { guardCommand } from './guard.js';
import { idcardCommand } from './idcard.js';
import { askCommand, kbCommand } from './knowledge.js';
import { linkCommand } from './link.js';
import { trackCommand, untrackCommand } from './track.js';
import { generateCommand, toneCommand, translateCommand } from './text.js';
import type { BotCommand } from './types.js';
import { shortenCommand, urlcheckCommand } from './urls.js';

/** The one command registry: both doors serve exactly these (CONTRACT §6). */
export const COMMANDS: readonly BotCommand[] = [
  linkCommand,
  askCommand,
  kbCommand,
  toneCommand,
  urlcheckCommand,
  generateCommand,
  idcardCommand,
  translateCommand,
  trackCommand,
  untrackCommand,
  shortenCommand,
  bizcheckCommand,
  guardCommand,
] as unknown as readonly BotCommand[];

const BY_NAME = new Map(COMMANDS.map((command) => [command.name, command]));

export function findCommand(name: string): BotCommand | undefined {
  return BY_NAME.get(name.replace(/^\//, '').toLowerCase());
}
