import autocannon, { type Request } from 'autocannon';

/**
 * The load generator of `measureHttp`, run as its own process so it does not share an event
 * loop with the server under test. Reads options as JSON from argv[2], prints the result JSON.
 * With `uniqueIds`, every `[<id>]` in the body becomes a fresh id per request (unique across runs); with
 * `apiKeys`, requests take turns with the keys (many accounts instead of one).
 */
const options = JSON.parse(process.argv[2] ?? '{}') as {
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  uniqueIds?: boolean;
  apiKeys?: string[];
  connections: number;
  duration: number;
};

let counter = 0;
// Ids unique across runs too: the runs of one bench share keys, and a URL an earlier run (the
// warm-up) shortened for the same key is a lookup of its existing link, not a new one.
const run = `${process.pid.toString(36)}${Date.now().toString(36)}`;
const template = options.body ?? '';
const keys = options.apiKeys ?? [];
const withKey = (headers: Record<string, string> | undefined, key: string) => ({ ...headers, 'x-api-key': key });
/**
 * A fresh body (and the next key) per request: built anew each time, so used only where needed.
 * autocannon hands over a copy of the request, headers included, so it is changed in place.
 */
function setupRequest(req: Request): Request {
  counter++;
  req.body = template.replaceAll('[<id>]', `${run}-${counter}`);
  if (keys.length > 0) req.headers!['x-api-key'] = keys[counter % keys.length]!;
  return req;
}
// Without fresh bodies, one prepared request per key, taken in turn: the load generator then
// spends no more per request than for the bare server it is compared with.
const requests = options.uniqueIds
  ? [{ setupRequest }]
  : keys.length > 0
    ? keys.map((key) => ({ headers: withKey(options.headers, key) }))
    : undefined;
// Only the run's own processor time (not this process's start-up) is reported.
const started = process.cpuUsage();
const result = await autocannon({
  url: options.url,
  method: options.method,
  headers: options.headers,
  body: options.body,
  connections: options.connections,
  duration: options.duration,
  ...(requests ? { requests } : {}),
});
const used = process.cpuUsage(started);
process.stdout.write(JSON.stringify({ ...result, loadCpuMicros: used.user + used.system }));
