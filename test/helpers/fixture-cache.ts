import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';

/**
 * A generated test file kept under the temporary directory, named by its recipe and the sharp
 * and libvips versions that make it: the same bytes `make` gives, made once on a machine
 * instead of in every run (an 8000 × 6000 PNG at compression level 9 costs 1.5 s of CPU).
 */
export async function cachedFixture(name: string, recipe: string, make: () => Promise<Buffer>): Promise<Buffer> {
  const key = createHash('sha256').update(recipe).update(JSON.stringify(sharp.versions)).digest('hex').slice(0, 16);
  const file = join(tmpdir(), 'aihub-test-fixtures', `${name}-${key}`);
  if (existsSync(file)) return readFileSync(file);
  const bytes = await make();
  mkdirSync(join(tmpdir(), 'aihub-test-fixtures'), { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, bytes);
  renameSync(partial, file);
  return bytes;
}
