import { readFileSync } from 'node:fs';

/**
 * Where the time of a `node --cpu-prof` profile went: self time by function (top 25) and by
 * package or project folder. `npx tsx bench/cpu-profile-summary.ts <file.cpuprofile>`
 */
interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
const profile = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const self = new Map<number, number>();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const total = [...self.values()].reduce((a, b) => a + b, 0);

function area(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : '(native)';
  const modules = url.match(/node_modules\/((@[^/]+\/)?[^/]+)/);
  if (modules) return modules[1]!;
  if (url.startsWith('node:')) return url;
  const project = url.match(/\/(api|src|db|bots|bench)\/([^/]+\/)?/);
  return project ? project[0].slice(1) : url;
}

const functions = new Map<string, number>();
const areas = new Map<string, number>();
for (const [id, micros] of self) {
  const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
  const key = `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}`;
  functions.set(key, (functions.get(key) ?? 0) + micros);
  const where = area(url, functionName);
  areas.set(where, (areas.get(where) ?? 0) + micros);
}
const pct = (micros: number) => `${((100 * micros) / total).toFixed(1).padStart(5)}%`;
console.log(`total sampled ${(total / 1e6).toFixed(1)} s`);
console.log('\nself time by area');
for (const [name, micros] of [...areas].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`${pct(micros)}  ${name}`);
console.log('\nself time by function (top 25)');
for (const [name, micros] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${pct(micros)}  ${name}`);
