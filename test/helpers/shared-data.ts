import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The outside data in `shared/data` beside the checkout, read in place (never copied into the
 * repository). A git worktree one folder deeper (`…/wt/<branch>`) finds it one level further up.
 * Callers skip with a message when the path does not exist.
 */
const SHARED_DATA = ['../../../shared/data/', '../../../../shared/data/']
  .map((dir) => fileURLToPath(new URL(dir, import.meta.url)))
  .find((dir) => existsSync(dir));

/** The absolute path of `relative` under shared/data (a path that does not exist when shared/ is absent). */
export function sharedDataPath(relative: string): string {
  return `${SHARED_DATA ?? '/absent/shared/data/'}${relative}`;
}
