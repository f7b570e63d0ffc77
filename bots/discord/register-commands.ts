import type { REST } from '@discordjs/rest';
import type { Logger } from '../../src/logger.js';

export interface RegisterOptions {
  rest: REST;
  applicationId: string;
  /** Registers for one server (instant) instead of globally. */
  guildId?: string;
  definitions: object[];
  logger: Logger;
}

/**
 * `npm run bots:register`: reads what Discord has, and overwrites it (one bulk PUT) only when
 * the definitions differ, so repeated deploys don't churn the commands.
 */
export async function registerDiscordCommands(options: RegisterOptions): Promise<{ changed: boolean; count: number }> {
  const path = (
    options.guildId
      ? `/applications/${options.applicationId}/guilds/${options.guildId}/commands`
      : `/applications/${options.applicationId}/commands`
  ) as `/${string}`;
  const existing = (await options.rest.get(path, { query: new URLSearchParams({ with_localizations: 'true' }) })) as object[];
  if (sameCommands(options.definitions, existing)) {
    options.logger.info(
      { count: existing.length, scope: options.guildId ? 'guild' : 'global' },
      'Discord commands unchanged: nothing registered',
    );
    return { changed: false, count: existing.length };
  }
  await options.rest.put(path, { body: options.definitions });
  options.logger.info({ count: options.definitions.length, scope: options.guildId ? 'guild' : 'global' }, 'Discord commands registered');
  return { changed: true, count: options.definitions.length };
}

/** Same commands when every field we define matches what Discord holds (Discord adds ids, versions, defaults). */
export function sameCommands(wanted: object[], existing: object[]): boolean {
  if (wanted.length !== existing.length) return false;
  const key = (command: object) => `${(command as { type?: number }).type ?? 1}:${(command as { name?: string }).name}`;
  const byKey = new Map(existing.map((command) => [key(command), command]));
  return wanted.every((command) => {
    const current = byKey.get(key(command));
    return current !== undefined && JSON.stringify(normalize(command)) === JSON.stringify(normalize(pickLike(command, current)));
  });
}

/** `actual` reduced to the keys `shape` has, recursively. */
function pickLike(shape: unknown, actual: unknown): unknown {
  if (Array.isArray(shape)) return Array.isArray(actual) ? actual.map((item, index) => pickLike(shape[index] ?? item, item)) : actual;
  if (shape && typeof shape === 'object' && actual && typeof actual === 'object') {
    return Object.fromEntries(
      Object.keys(shape).map((name) => [
        name,
        pickLike((shape as Record<string, unknown>)[name], (actual as Record<string, unknown>)[name]),
      ]),
    );
  }
  return actual;
}

/** Discord omits defaults (false, empty lists, null); so does the comparison. Keys are sorted. */
function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalize);
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined && item !== null && item !== false && !(Array.isArray(item) && item.length === 0))
      .map(([name, item]) => [name, normalize(item)] as const)
      .sort(([a], [b]) => a.localeCompare(b));
    return Object.fromEntries(entries);
  }
  return value;
}
