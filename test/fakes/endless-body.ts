import type { ServerResponse } from 'node:http';

/**
 * A hostile or broken upstream: a 200 whose body never ends. It writes 64 KB chunks of
 * JSON-looking bytes as fast as the reader takes them (respecting backpressure) until the
 * client closes the connection, and reports how many bytes went out, so a test can assert
 * that the reader stopped near its cap instead of draining forever.
 */
export function streamForever(res: ServerResponse, count: (bytes: number) => void, contentType = 'application/json'): void {
  const chunk = Buffer.alloc(64 * 1024, ' ');
  res.writeHead(200, { 'content-type': contentType });
  res.write('{"data":"');
  let open = true;
  res.once('close', () => (open = false));
  const pump = () => {
    while (open) {
      count(chunk.length);
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
  };
  pump();
}
