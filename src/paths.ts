import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project's root (where package.json is), found from this file whether it runs from
 * `src/` (tsx, tests) or from `dist/src/` (npm start). Non-code assets — migrations, the
 * portal's static files — are read from there, since the build compiles only TypeScript.
 */
export const projectRoot = findRoot();

export function projectPath(...segments: string[]): string {
  return join(projectRoot, ...segments);
}

function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) || dir.endsWith('/dist')) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('project root (package.json) not found');
    dir = parent;
  }
  return dir;
}
