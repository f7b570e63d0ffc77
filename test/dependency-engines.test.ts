import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

/**
 * `npm install` warns EBADENGINE for a package whose `engines.node` excludes the running Node: the
 * locked dependency set must install without one on every Node the README promises (issue 47:
 * docx's nanoid 6 wanted Node 22; package.json's `overrides` keeps it at 5).
 */
const semver = createRequire(import.meta.url)('semver') as {
  satisfies(version: string, range: string): boolean;
  minVersion(range: string): { version: string } | null;
};
const read = (path: string) => JSON.parse(readFileSync(new URL(`../${path}`, import.meta.url), 'utf8'));
const manifest = read('package.json') as { engines: { node: string } };
const lock = read('package-lock.json') as {
  packages: Record<string, { engines?: { node?: string }; optional?: boolean }>;
};

describe('the dependency set installs without engine warnings', () => {
  const lowest = semver.minVersion(manifest.engines.node)!.version;

  it('on the Node versions the README names', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    expect(readme).toContain(`Node ${lowest.replace(/\.0$/, '')} or later`);
    // The lowest the README allows, and the first releases of the later lines.
    const versions = [lowest, '22.12.0', '24.0.0'];
    const offenders = Object.entries(lock.packages).flatMap(([path, entry]) => {
      const range = entry.engines?.node;
      // Optional packages are the builds for other systems (Windows, WebAssembly) and what only they
      // need: npm skips them where they do not fit, without a warning.
      if (!range || entry.optional) return [];
      return versions.filter((version) => !semver.satisfies(version, range)).map((version) => `${path} (${range}) on Node ${version}`);
    });
    expect(offenders).toEqual([]);
  });
});
