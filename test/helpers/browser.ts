import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/**
 * The browser of the portal tests, from Debian's packages: `chromium-headless-shell` when it is
 * installed (`.ci/run` installs it), else `chromium`; `CHROMIUM_PATH` chooses another. The shell is
 * the same engine without the desktop browser around it: the portal files take about a quarter
 * less CPU with it (docs/evaluations/test-suite.md).
 */
export const CHROMIUM =
  process.env.CHROMIUM_PATH ??
  ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((path) => existsSync(path)) ??
  '/usr/bin/chromium';

export const hasChromium = existsSync(CHROMIUM);

/** CI sets `CI` (`.ci/run` sets it to `true`). */
const inCi = !['', '0', 'false'].includes((process.env.CI ?? '').toLowerCase());

/**
 * Outside CI a machine without Chromium skips the browser tests, with one line naming what to
 * install; under CI they run, and fail at launch, rather than pass unseen.
 */
export const runBrowserTests = hasChromium || inCi;
if (!runBrowserTests) {
  console.warn(`[portal browser tests] skipped: no Chromium at ${CHROMIUM}. To run them: apt-get install chromium-headless-shell`);
}

/** Headless, without the background connections this machine's closed network refuses. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
