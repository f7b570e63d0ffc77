import autocannon from 'autocannon';

/**
 * The load generator of `measureHttp`, run as its own process so it does not share an event
 * loop with the server under test. Reads options as JSON from argv[2], prints the result JSON.
 * With `uniqueIds`, every `[<id>]` in the body becomes a fresh number per request.
 */
const options = JSON.parse(process.argv[2] ?? '{}') as {
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  uniqueIds?: boolean;
  connections: number;
  duration: number;
};

let counter = 0;
const template = options.body;
const result = await autocannon({
  url: options.url,
  method: options.method,
  headers: options.headers,
  body: template,
  connections: options.connections,
  duration: options.duration,
  ...(options.uniqueIds && template
    ? { requests: [{ setupRequest: (req: any) => ({ ...req, body: template.replaceAll('[<id>]', String(++counter)) }) }] }
    : {}),
});
process.stdout.write(JSON.stringify(result));
