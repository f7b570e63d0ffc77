import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

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
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    apiUrl: `${url}/api`,
    calls,
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
