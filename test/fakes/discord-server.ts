import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

/**
 * A fake Discord REST API for tests (`DISCORD_API_URL` = `${url}/api`): interaction webhook
 * edits, application command registration, and attachment downloads. The real
 * `@discordjs/rest` client talks to it; every call is recorded.
 */

export interface DiscordCall {
  path: string;
  method: string;
  headers: IncomingMessage['headers'];
  body: any;
}

export interface FakeDiscord {
  url: string;
  apiUrl: string;
  calls: DiscordCall[];
  /** Calls whose path ends with `suffix` (and method, when given). */
  find(method: string, pathPart: string): DiscordCall[];
  addAttachment(name: string, bytes: Buffer, contentType?: string): string;
  /** Gateway: the IDENTIFY payloads received (token, intents…). */
  identifies: Array<{ token: string; intents: number }>;
  /** Gateway: close an IDENTIFY with these intent bits set with 4014 (Disallowed intents), as Discord does for a privileged intent not enabled. */
  refuseIntents(bits: number): void;
  /** Gateway: sends a dispatch (`MESSAGE_CREATE`…) to every identified connection. */
  dispatch(t: string, d: unknown): void;
  /** `DELETE /channels/<id>/messages/<id>` in this channel answers 403 Missing Permissions. */
  denyManageMessages(channel: string): void;
  /** What `GET /channels/:id/messages` answers (newest first, as Discord; bot token only). */
  setMessages(channelId: string, messages: object[]): void;
  waitFor<T>(predicate: () => T | undefined | false, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

export async function startFakeDiscord(): Promise<FakeDiscord> {
  const calls: DiscordCall[] = [];
  const commands = new Map<string, object[]>();
  const attachments = new Map<string, { bytes: Buffer; type: string }>();
  const channelMessages = new Map<string, object[]>();
  let ids = 1000;
  const identifies: Array<{ token: string; intents: number }> = [];
  const sockets = new Set<WebSocket>();
  const denied = new Set<string>();
  const deleted = new Set<string>();
  let refusedIntents = 0;
  let sequence = 0;

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const path = (req.url ?? '').split('?')[0] ?? '';
    const body = raw && (req.headers['content-type'] ?? '').includes('json') ? JSON.parse(raw) : raw;
    calls.push({ path, method: req.method ?? '', headers: req.headers, body });
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };

    if (path.startsWith('/attachments/')) {
      const file = attachments.get(path.slice('/attachments/'.length));
      if (!file) return json(404, { message: 'Unknown attachment' });
      res.writeHead(200, { 'content-type': file.type, 'content-length': String(file.bytes.length) });
      return res.end(file.bytes);
    }
    const webhook = /^\/api\/v10\/webhooks\/[^/]+\/[^/]+\/messages\/@original$/.exec(path);
    if (webhook && req.method === 'PATCH') return json(200, { id: String(++ids), ...body });
    if (/^\/api\/v10\/interactions\/[^/]+\/[^/]+\/callback$/.test(path)) {
      res.writeHead(204);
      return res.end();
    }
    const history = /^\/api\/v10\/channels\/([^/]+)\/messages$/.exec(path);
    if (history && req.method === 'GET') {
      if (req.headers.authorization !== 'Bot test-bot-token') return json(401, { message: '401: Unauthorized', code: 0 });
      const messages = channelMessages.get(history[1]!);
      if (!messages) return json(404, { message: 'Unknown Channel', code: 10003 });
      const limit = Number(new URL(req.url ?? '', 'http://fake').searchParams.get('limit') ?? 50);
      return json(200, messages.slice(0, limit));
    }
    if (path === '/api/v10/gateway/bot') {
      if (req.headers.authorization !== 'Bot test-bot-token') return json(401, { message: '401: Unauthorized', code: 0 });
      return json(200, {
        url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/gateway`,
        shards: 1,
        session_start_limit: { total: 1000, remaining: 999, reset_after: 0, max_concurrency: 1 },
      });
    }
    const channelMessage = /^\/api\/v10\/channels\/([^/]+)\/messages(?:\/([^/]+))?$/.exec(path);
    if (channelMessage) {
      if (req.headers.authorization !== 'Bot test-bot-token') return json(401, { message: '401: Unauthorized', code: 0 });
      const [, channel = '', message] = channelMessage;
      if (req.method === 'DELETE' && message) {
        if (denied.has(channel)) return json(403, { message: 'Missing Permissions', code: 50013 });
        deleted.add(message);
        res.writeHead(204);
        return res.end();
      }
      if (req.method === 'POST' && !message) {
        if (typeof body !== 'object' || (!body.content && !body.embeds?.length))
          return json(400, { message: 'Cannot send an empty message', code: 50006 });
        // As Discord does: a reply to a deleted message fails unless `fail_if_not_exists` is false.
        const reference = body.message_reference as { message_id?: string; fail_if_not_exists?: boolean } | undefined;
        if (reference?.message_id && deleted.has(reference.message_id) && reference.fail_if_not_exists !== false) {
          return json(400, { message: 'Invalid Form Body', code: 50035 });
        }
        return json(200, { id: String(++ids), channel_id: channel, ...body });
      }
    }
    const registration = /^\/api\/v10\/applications\/([^/]+)(?:\/guilds\/([^/]+))?\/commands$/.exec(path);
    if (registration) {
      if (req.headers.authorization !== 'Bot test-bot-token') return json(401, { message: '401: Unauthorized', code: 0 });
      const scope = `${registration[1]}:${registration[2] ?? 'global'}`;
      if (req.method === 'PUT') {
        // As Discord does: ids, versions and defaults added; `required: false` dropped.
        const stored = (body as object[]).map((command) => ({
          id: String(++ids),
          application_id: registration[1],
          version: String(++ids),
          default_member_permissions: null,
          nsfw: false,
          ...JSON.parse(JSON.stringify(command, (key, value) => (key === 'required' && value === false ? undefined : value))),
        }));
        commands.set(scope, stored);
        return json(200, stored);
      }
      return json(200, commands.get(scope) ?? []);
    }
    return json(404, { message: 'Unknown route', code: 0 });
  });
  // The gateway (API v10, JSON, no compression): HELLO, IDENTIFY → READY, heartbeats acknowledged.
  const gateway = new WebSocketServer({ server, path: '/gateway' });
  gateway.on('connection', (socket) => {
    socket.send(JSON.stringify({ op: 10, d: { heartbeat_interval: 45_000 }, s: null, t: null }));
    socket.on('message', (raw) => {
      const packet = JSON.parse(String(raw)) as { op: number; d: any };
      if (packet.op === 1) socket.send(JSON.stringify({ op: 11, d: null, s: null, t: null }));
      if (packet.op !== 2) return;
      identifies.push({ token: packet.d.token, intents: packet.d.intents });
      if (packet.d.token !== 'test-bot-token') return socket.close(4004, 'Authentication failed.');
      if ((packet.d.intents & refusedIntents) !== 0) return socket.close(4014, 'Disallowed intent(s).');
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      const ready = {
        v: 10,
        user: { id: '444444444444444444', username: 'hub', discriminator: '0', bot: true, avatar: null, global_name: null },
        guilds: [],
        session_id: 'fake-session',
        resume_gateway_url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/gateway`,
        shard: [0, 1],
        application: { id: '111111111111111111', flags: 0 },
      };
      socket.send(JSON.stringify({ op: 0, t: 'READY', s: ++sequence, d: ready }));
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    apiUrl: `${url}/api`,
    calls,
    identifies,
    refuseIntents: (bits) => void (refusedIntents = bits),
    dispatch(t, d) {
      const packet = JSON.stringify({ op: 0, t, s: ++sequence, d });
      for (const socket of sockets) socket.send(packet);
    },
    denyManageMessages: (channel) => void denied.add(channel),
    find: (method, pathPart) => calls.filter((call) => call.method === method && call.path.includes(pathPart)),
    setMessages: (channelId, messages) => void channelMessages.set(channelId, messages),
    addAttachment(name, bytes, contentType = 'image/png') {
      attachments.set(name, { bytes, type: contentType });
      return `${url}/attachments/${name}`;
    },
    async waitFor(predicate, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const value = predicate();
        if (value) return value;
        if (Date.now() > deadline) throw new Error('fake Discord: waited too long');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async close() {
      for (const socket of sockets) socket.terminate();
      gateway.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A test application key pair: the hex public key for DISCORD_PUBLIC_KEY and a signer as Discord signs. */
export function discordKeyPair(): { publicKeyHex: string; sign(timestamp: string, body: string): string; privateKey: KeyObject } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const publicKeyHex = publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('hex');
  return {
    publicKeyHex,
    privateKey,
    sign: (timestamp, body) => sign(null, Buffer.from(timestamp + body), privateKey).toString('hex'),
  };
}
