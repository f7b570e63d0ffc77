import autocannon from 'autocannon';

/**
 * The load generator of `measureHttp`, run as its own process so it does not share an event
 * loop with the server under test. Reads options as JSON from argv[2], prints the result JSON.
 * With `uniqueIds`, every `[<id>]` in the body becomes a fresh number per request; with
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
const template = options.body ?? '';
const keys = options.apiKeys ?? [];
function setupRequest(req: any) {
  counter++;
  return {
    ...req,
    ...(options.uniqueIds ? { body: template.replaceAll('[<id>]', String(counter)) } : {}),
    ...(keys.length > 0 ? { headers: { ...req.headers, 'x-api-key': keys[counter % keys.length] } } : {}),
  };
}
// Only the run's own processor time (not this process's start-up) is reported.
const started = process.cpuUsage();
const result = await autocannon({
  url: options.url,
  method: options.method,
  headers: options.headers,
  body: options.body,
  connections: options.connections,
  duration: options.duration,
  ...(options.uniqueIds || keys.length > 0 ? { requests: [{ setupRequest }] } : {}),
});
const used = process.cpuUsage(started);
process.stdout.write(JSON.stringify({ ...result, loadCpuMicros: used.user + used.system }));
