import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { projectRoot } from '../../paths.js';
import type { ChildAnswer, ChildJob } from './document-child.js';

export type { ChildAnswer, ChildJob } from './document-child.js';

/**
 * The caps of the process that reads one caller's file. A worker thread's `resourceLimits`
 * were not one (issue 46): they cap only the V8 heap, while inflated ZIP entries, pdf.js's
 * streams and canvases are ArrayBuffers outside it, and a worker that overruns its heap in one
 * allocation ends the whole process (V8's out-of-memory is fatal to the process, not the
 * isolate). A child process has a heap cap (`--max-old-space-size`) and a data-segment cap
 * the kernel enforces (`ulimit -d`: every private writable mapping, ArrayBuffers and native
 * allocations included), and whatever it does, it dies alone.
 */
export const SANDBOX_LIMITS = {
  heapMb: 256,
  /** The child's whole writable memory: its heap, its buffers and Node itself (~60 MB). */
  memoryMb: 768,
} as const;

const FROM_SOURCE = fileURLToPath(import.meta.url).endsWith('.ts');
let entry: string | undefined;

/**
 * The child's script: the built `document-child.js` beside this file, or, when the service runs
 * from its TypeScript (tsx, tests), the same source bundled once per process into JavaScript under
 * node_modules/.cache (esbuild, ~50 ms; vendor packages stay imports). Running it through tsx
 * instead cost ten times the CPU: tsx's loader transforms pdf.js's 3 MB on every start.
 */
function childEntry(): string {
  if (entry) return entry;
  const source = fileURLToPath(new URL('./document-child.ts', import.meta.url));
  if (!FROM_SOURCE) return (entry = source.replace(/\.ts$/, '.js'));
  const dir = join(projectRoot, 'node_modules', '.cache', 'ai-hub');
  mkdirSync(dir, { recursive: true });
  const out = join(dir, 'document-child.mjs');
  const partial = `${out}.${process.pid}.partial`;
  buildSync({
    entryPoints: [source],
    bundle: true,
    packages: 'external',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outfile: partial,
    logLevel: 'error',
  });
  renameSync(partial, out);
  return (entry = out);
}
/** The kernel's memory cap needs a shell's `ulimit` (Linux, macOS); elsewhere the heap cap alone holds. */
const SHELL = existsSync('/bin/sh') ? '/bin/sh' : undefined;

/** What ended a child without an answer. */
export type SandboxFailure = 'Timeout' | 'Aborted' | 'OutOfMemory' | 'Failed' | 'Unavailable';

/** The command line: node with the heap cap (and tsx when the service runs from its sources), under the memory cap. */
function commandLine(): [string, string[]] {
  const node = [`--max-old-space-size=${SANDBOX_LIMITS.heapMb}`, '--max-semi-space-size=16', childEntry()];
  if (!SHELL) return [process.execPath, node];
  return [SHELL, ['-c', `ulimit -d ${SANDBOX_LIMITS.memoryMb * 1024} && exec "$0" "$@"`, process.execPath, ...node]];
}

/**
 * Runs one job in a fresh child process and resolves with its answer, or with `{ error }`
 * naming what ended it (time, the caller's abort, memory, a crash, or no child at all). The
 * child gets no environment (no keys reach the code that parses a stranger's file).
 */
export function runInChild(job: ChildJob, timeoutMs: number, signal?: AbortSignal): Promise<ChildAnswer | { error: SandboxFailure }> {
  return new Promise((resolve) => {
    const [command, args] = commandLine();
    const child = spawn(command, args, {
      cwd: projectRoot,
      env: { MALLOC_ARENA_MAX: '2' },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
    });
    let stderr = '';
    let settled = false;
    const finish = (answer: ChildAnswer | { error: SandboxFailure }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      resolve(answer);
    };
    const timer = setTimeout(() => finish({ error: 'Timeout' }), timeoutMs);
    const onAbort = () => finish({ error: 'Aborted' });
    if (signal?.aborted) return finish({ error: 'Aborted' });
    signal?.addEventListener('abort', onAbort, { once: true });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4096);
    });
    child.once('message', (answer: ChildAnswer) => finish(answer));
    child.once('error', () => finish({ error: 'Unavailable' }));
    child.once('exit', (code, killedBy) => {
      // V8 prints why it gave up; a native allocation refused by the memory cap aborts or faults.
      const outOfMemory =
        /out of memory|allocation failed|Cannot allocate|std::bad_alloc/i.test(stderr) || killedBy === 'SIGABRT' || killedBy === 'SIGSEGV';
      finish({ error: code === 0 ? 'Failed' : outOfMemory ? 'OutOfMemory' : 'Failed' });
    });
    child.send(job, (error) => {
      if (error) finish({ error: 'Failed' });
    });
  });
}
