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
if (!hasChromium) console.warn(`[portal browser test] SKIPPED: no Chromium at ${CHROMIUM} (apt-get install chromium-headless-shell)`);

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
