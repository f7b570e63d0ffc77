import { runScale } from './url-lists-scale.js';

/** `npm run bench url-lists`: the harmful-URL lists at 2 million entries (BENCH_URL_ENTRIES to change). */
export async function run(): Promise<void> {
  await runScale();
}
