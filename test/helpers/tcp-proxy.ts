import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL that a test can take down and bring back, as a database
 * restart looks to the service: `stop()` ends every connection (the server's own
 * "terminating connection" when `terminate` is given, else a reset) and refuses new ones until
 * `start()`. The machine's shared PostgreSQL is never touched.
 */
export interface TcpProxy {
  port: number;
  /** Local ports of the proxy's connections to the upstream (= `client_port` in pg_stat_activity). */
  upstreamPorts(): number[];
  stop(terminate?: (ports: number[]) => Promise<void>): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const pairs = new Set<{ client: Socket; upstream: Socket }>();
  let server: Server | undefined;
  let port = 0;

  function listen(): Promise<void> {
    server = createServer((client) => {
      const upstream = connect(targetPort, targetHost);
      const pair = { client, upstream };
      pairs.add(pair);
      client.pipe(upstream).pipe(client);
      const drop = () => {
        pairs.delete(pair);
        client.destroy();
        upstream.destroy();
      };
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
    });
    return new Promise((resolve, reject) => {
      server!.once('error', reject);
      server!.listen(port, '127.0.0.1', () => {
        port = (server!.address() as AddressInfo).port;
        resolve();
      });
    });
  }

  await listen();
  const proxy: TcpProxy = {
    get port() {
      return port;
    },
    upstreamPorts: () => [...pairs].map((pair) => pair.upstream.localPort).filter((p): p is number => p !== undefined),
    async stop(terminate) {
      const closed = new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      server = undefined;
      if (terminate) await terminate([...pairs].map((pair) => pair.upstream.localPort ?? 0));
      // Give the terminations a moment to flow through, then cut whatever is left.
      await new Promise((resolve) => setTimeout(resolve, 50));
      for (const pair of pairs) {
        pair.client.destroy();
        pair.upstream.destroy();
      }
      pairs.clear();
      await closed;
    },
    start: listen,
    close: () => proxy.stop(),
  };
  return proxy;
}
