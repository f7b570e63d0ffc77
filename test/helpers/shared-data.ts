import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The outside data in `shared/data` beside the checkout, read in place (never copied into the
 * repository). A git worktree one folder deeper (`…/wt/<branch>`) finds it one level further up.
 */
const SHARED_DATA = ['../../../shared/data/', '../../../../shared/data/']
  .map((dir) => fileURLToPath(new URL(dir, import.meta.url)))
  .find((dir) => existsSync(dir));

/** The absolute path of `relative` under shared/data (a path that does not exist when shared/ is absent). */
export function sharedDataPath(relative: string): string {
  return `${SHARED_DATA ?? '/absent/shared/data/'}${relative}`;
}

/** CI sets `CI` (GitHub Actions, GitLab and `.ci/run` set it to `true`). */
const inCi = (): boolean => !['', '0', 'false'].includes((process.env.CI ?? '').toLowerCase());

/**
 * Whether `relative` exists under shared/data, for a test's `skipIf`. Outside CI a missing data set
 * skips its tests with a warning; in CI it throws, so the test file fails instead of passing its
 * real-data tests as "skipped".
 */
export function sharedDataPresent(relative: string): boolean {
  const path = sharedDataPath(relative);
  if (existsSync(path)) return true;
  if (inCi()) {
    throw new Error(`shared/data/${relative} is missing (looked for ${path}): in CI a test of real data fails rather than skips`);
  }
  console.warn(`[real data] tests of shared/data/${relative} SKIPPED: ${path} is absent`);
  return false;
}
