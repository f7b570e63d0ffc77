import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** STYLE.md's layering, read from the imports: one core, thin doors, vendors behind providers. */
const root = fileURLToPath(new URL('..', import.meta.url));
const VENDOR_SDKS = [/^openai(\/|$)/, /^tesseract\.js(\/|$)/, /^@slack\//, /^discord\.js(\/|$)/, /^@discordjs\//];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)].map(
    (match) => match[1] ?? match[2] ?? '',
  );
}

describe('layers', () => {
  const srcFiles = sourceFiles(join(root, 'src'));

  it('src/ never imports the doors (api/, bots/)', () => {
    const offenders = srcFiles.flatMap((file) =>
      importsOf(file)
        .filter((spec) => /(^|\/)(api|bots)\//.test(spec) && spec.startsWith('.'))
        .map((spec) => `${relative(root, file)} → ${spec}`),
    );
    expect(offenders).toEqual([]);
  });

  it('only src/providers/ imports vendor SDKs', () => {
    const outside = srcFiles.filter((file) => !relative(root, file).startsWith('src/providers/'));
    const offenders = outside.flatMap((file) =>
      importsOf(file)
        .filter((spec) => VENDOR_SDKS.some((pattern) => pattern.test(spec)))
        .map((spec) => `${relative(root, file)} → ${spec}`),
    );
    expect(offenders).toEqual([]);
  });

  it('only src/config.ts reads process.env', () => {
    const readers = srcFiles
      .filter((file) => /process\.env\b/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(root, file));
    expect(readers).toEqual(['src/config.ts']);
  });
});
