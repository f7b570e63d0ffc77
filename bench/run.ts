import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * `npm run bench [name…]`: runs every `bench/*.bench.ts` (or the named ones) one after
 * another. Each exports `run()` and prints its own figures and ratios to a baseline.
 */
const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const files = readdirSync(here)
  .filter((file) => file.endsWith('.bench.ts'))
  .filter((file) => wanted.length === 0 || wanted.some((name) => file.startsWith(name)))
  .sort();

console.log(`# AI Utility Hub benchmarks — node ${process.version}, ${new Date().toISOString()}`);
for (const file of files) {
  const module = (await import(pathToFileURL(`${here}/${file}`).href)) as { run: () => Promise<void> };
  await module.run();
}
