import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectPath } from '../src/paths.js';
import { startTestApp } from './helpers/app.js';
import { schemaValidator } from './helpers/openapi-answers.js';

/**
 * The served `/openapi.json` read by the ecosystem's own linters, as a generator's user would:
 * Spectral (`spectral:oas`) and Redocly (`recommended`, with the two rules redocly.yaml turns off
 * and says why), each run once on the document a running app serves. Beside them, what they do
 * not check: operationIds (camelCase, unique), declared tags, contact and licence, every example
 * against its own schema, and the precise forms of the two rules turned off.
 */
type Operation = Record<string, any>;
type Doc = {
  info: Record<string, any>;
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, object> };
};

const run = promisify(execFile);
const require = createRequire(import.meta.url);
/** A package's bin script, run with this node (no shell, no npx). */
const binOf = (name: string, bin: string) => join(dirname(require.resolve(`${name}/package.json`)), bin);

let doc: Doc;
let folder: string;
let file: string;

beforeAll(async () => {
  const app = await startTestApp();
  try {
    const res = await app.get('/openapi.json');
    expect(res.status).toBe(200);
    doc = res.body;
  } finally {
    await app.close();
  }
  folder = await mkdtemp(join(tmpdir(), 'openapi-lint-'));
  file = join(folder, 'openapi.json');
  await writeFile(file, JSON.stringify(doc, null, 2));
});
afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

/** Runs a linter; a non-zero exit (problems found) still gives its JSON report on stdout. */
async function lint(script: string, args: string[]): Promise<string> {
  // No telemetry or update check from Redocly: the suite runs offline.
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
  try {
    return (await run(process.execPath, [script, ...args], { env, maxBuffer: 32 * 1024 * 1024 })).stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    if (!stdout?.trim()) throw new Error(`${script} failed: ${stderr}`);
    return stdout;
  }
}

function operations(items: Doc['paths']): [string, Operation][] {
  return Object.entries(items).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]): [string, Operation] => [`${method.toUpperCase()} ${path}`, operation]),
  );
}

describe('the served OpenAPI document, linted', () => {
  it('has no Spectral (spectral:oas) error or warning', async () => {
    const ruleset = join(folder, '.spectral.yaml');
    await writeFile(ruleset, 'extends: ["spectral:oas"]\n');
    // Spectral writes a summary line after its JSON on stdout: the report goes to a file.
    const report = join(folder, 'spectral.json');
    await lint(binOf('@stoplight/spectral-cli', 'dist/index.js'), [
      'lint',
      '--ruleset',
      ruleset,
      '--format',
      'json',
      '--output',
      report,
      file,
    ]);
    const results = JSON.parse(await readFile(report, 'utf8')) as { code: string; message: string; path: string[]; severity: number }[];
    // Severity 0 is an error, 1 a warning (2 and 3 are hints).
    const problems = results.filter((result) => result.severity <= 1).map((r) => `${r.code} ${r.path.join('.')}: ${r.message}`);
    expect(problems).toEqual([]);
  }, 120_000);

  it('has no Redocly (recommended) error or warning', async () => {
    const output = await lint(binOf('@redocly/cli', 'bin/cli.js'), [
      'lint',
      '--config',
      projectPath('redocly.yaml'),
      '--format',
      'json',
      file,
    ]);
    const report = JSON.parse(output) as { problems: { ruleId: string; message: string; location: { pointer: string }[] }[] };
    const problems = report.problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);
    expect(problems).toEqual([]);
  }, 120_000);

  it('names every operation with a unique camelCase operationId', () => {
    const all = [...operations(doc.paths), ...operations(doc.webhooks)];
    const missing = all.filter(([, operation]) => !/^[a-z][a-zA-Z0-9]*$/.test(operation.operationId ?? '')).map(([where]) => where);
    expect(missing).toEqual([]);
    const ids = all.map(([, operation]) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(operations(doc.paths)).toHaveLength(49);
    // The names the docs and generated clients already use.
    expect(doc.paths['/api/v1/url/detect']!.post!.operationId).toBe('detectUrl');
    expect(doc.paths['/api/v1/url/shorten']!.post!.operationId).toBe('shortenUrl');
    expect(doc.paths['/api/v1/url/scan']!.post!.operationId).toBe('scanMessage');
    expect(doc.paths['/api/v1/keys']!.post!.operationId).toBe('createApiKey');
    expect(doc.paths['/metrics']!.get!.operationId).toBe('getMetrics');
  });

  it('declares every tag it uses with a description, and gives contact and licence', () => {
    const declared = new Map((doc.tags ?? []).map((tag) => [tag.name, tag.description ?? '']));
    const used = new Set([...operations(doc.paths), ...operations(doc.webhooks)].flatMap(([, operation]) => operation.tags ?? []));
    expect([...used].filter((tag) => !declared.get(tag))).toEqual([]);
    expect(doc.info.contact).toMatchObject({ name: expect.any(String), url: expect.stringMatching(/^http/) });
    expect(doc.info.license).toMatchObject({ name: expect.any(String), url: expect.stringMatching(/^http.*\/terms$/) });
  });

  it('shows only examples that their own schemas accept', () => {
    const problemsOf = schemaValidator(doc);
    const invalid: string[] = [];
    const check = (where: string, schema: object | undefined, example: unknown) => {
      const problems = schema && example !== undefined ? problemsOf(schema, example) : undefined;
      if (problems) invalid.push(`${where}: ${problems}`);
    };
    for (const [where, operation] of [...operations(doc.paths), ...operations(doc.webhooks)]) {
      for (const parameter of operation.parameters ?? []) check(`${where} ${parameter.name}`, parameter.schema, parameter.example);
      for (const [media, content] of Object.entries<any>(operation.requestBody?.content ?? {}))
        check(`${where} request ${media}`, content.schema, content.example);
      for (const [status, response] of Object.entries<any>(operation.responses ?? {}))
        for (const [media, content] of Object.entries<any>(response.content ?? {}))
          check(`${where} ${status} ${media}`, content.schema, content.example);
    }
    expect(invalid).toEqual([]);
  });

  it('documents a success for every operation, and the 4xx answers of every one that takes a key, a parameter or a body', () => {
    const problems: string[] = [];
    for (const [where, operation] of operations(doc.paths)) {
      const statuses = Object.keys(operation.responses);
      if (!statuses.some((status) => /^[23]\d\d$/.test(status))) problems.push(`${where}: no 2xx or 3xx`);
      const takes = (operation.security ?? []).length > 0 || (operation.parameters ?? []).length > 0 || operation.requestBody;
      if (takes && !statuses.some((status) => /^4\d\d$/.test(status))) problems.push(`${where}: no 4xx`);
      if ((operation.security ?? []).length > 0 && !statuses.includes('401')) problems.push(`${where}: no 401`);
      if (operation.requestBody && !(statuses.includes('400') && statuses.includes('413'))) problems.push(`${where}: no 400 or 413`);
    }
    expect(problems).toEqual([]);
  });
});
