import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake Slack for tests: the Web API (`SLACK_API_URL` = `${url}/api/`) that the real Bolt
 * client calls, `response_url` endpoints that `respond()` posts to, and private file
 * downloads that need the bot token. Every call is recorded for assertions.
 */

export interface SlackCall {
  path: string;
  method: string;
  headers: IncomingMessage['headers'];
  body: any;
}

export interface FakeSlackUser {
  locale?: string;
  is_admin?: boolean;
}

export interface FakeSlack {
  url: string;
  apiUrl: string;
  calls: SlackCall[];
  /** Web API calls by method name (`users.info`, `chat.postMessage`). */
  api(method: string): SlackCall[];
  /** What was posted to one response URL. */
  responses(responseUrl: string): SlackCall[];
  responseUrl(): string;
  setUser(id: string, user: FakeSlackUser): void;
  /** What `conversations.info` says about a channel (its creator). */
  setChannel(id: string, channel: { creator: string }): void;
  /** `chat.postMessage` to this channel fails with a Slack error (e.g. `not_in_channel`). */
  refuseChannel(channel: string, error: string): void;
  /** Serves a file at `/files/<name>` (bot token only) and describes it to `files.info` as id `name`. */
  addFile(name: string, bytes: Buffer, contentType?: string): string;
  /** What `conversations.replies` answers for a thread (root `ts` in `channel`): the messages as Slack returns them. */
  setThread(channel: string, ts: string, messages: object[]): void;
  /** Waits until `predicate` holds for the recorded calls (polling), or fails after `timeoutMs`. */
  waitFor<T>(predicate: () => T | undefined | false, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

export async function startFakeSlack(options: { botToken: string; teamId?: string }): Promise<FakeSlack> {
  const calls: SlackCall[] = [];
  const users = new Map<string, FakeSlackUser>();
  const channels = new Map<string, { creator: string }>();
  const files = new Map<string, { bytes: Buffer; type: string }>();
  const refused = new Map<string, string>();
  const threads = new Map<string, object[]>();
  let counter = 0;
  let url = '';

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const path = (req.url ?? '').split('?')[0] ?? '';
    const type = req.headers['content-type'] ?? '';
    const body = type.includes('json') ? (raw ? JSON.parse(raw) : {}) : Object.fromEntries(new URLSearchParams(raw));
    calls.push({ path, method: req.method ?? '', headers: req.headers, body });
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };

    if (path.startsWith('/files/')) {
      const file = files.get(path.slice('/files/'.length));
      if (req.headers.authorization !== `Bearer ${options.botToken}`) return json(403, { ok: false, error: 'not_authed' });
      if (!file) return json(404, { ok: false, error: 'file_not_found' });
      res.writeHead(200, { 'content-type': file.type, 'content-length': String(file.bytes.length) });
      return res.end(file.bytes);
    }
    if (path.startsWith('/respond/')) return json(200, { ok: true });
    if (!path.startsWith('/api/')) return json(404, { ok: false, error: 'unknown_path' });
    if (req.headers.authorization !== `Bearer ${options.botToken}`) return json(200, { ok: false, error: 'invalid_auth' });
    const method = path.slice('/api/'.length);
    switch (method) {
      case 'auth.test':
        return json(200, { ok: true, user_id: 'UBOT', bot_id: 'BBOT', team_id: options.teamId ?? 'T1', user: 'hub' });
      case 'users.info': {
        const id = String(body.user);
        const user = users.get(id) ?? {};
        return json(200, { ok: true, user: { id, locale: user.locale ?? 'ko-KR', is_admin: user.is_admin ?? false, is_owner: false } });
      }
      case 'files.info': {
        // What Slack Connect files need: the event carries only the id (`file_access: check_file_info`).
        const id = String(body.file);
        const file = files.get(id);
        if (!file) return json(200, { ok: false, error: 'file_not_found' });
        const link = `${url}/files/${id}`;
        return json(200, {
          ok: true,
          file: {
            id,
            name: id,
            mimetype: file.type,
            size: file.bytes.length,
            url_private: link,
            url_private_download: link,
            file_access: 'visible',
          },
        });
      }
      case 'conversations.info': {
        const id = String(body.channel);
        const channel = channels.get(id);
        if (!channel) return json(200, { ok: false, error: 'channel_not_found' });
        return json(200, { ok: true, channel: { id, is_channel: true, creator: channel.creator, created: 1700000000 } });
      }
      case 'chat.postMessage':
        if (refused.has(String(body.channel))) return json(200, { ok: false, error: refused.get(String(body.channel)) });
        return json(200, { ok: true, channel: body.channel, ts: `${Date.now() / 1000}` });
      case 'conversations.replies': {
        // As Slack: the root first, then the replies; `thread_not_found` for an unknown one.
        const thread = threads.get(`${body.channel}/${body.ts}`);
        if (!thread) return json(200, { ok: false, error: 'thread_not_found' });
        const limit = Number(body.limit ?? 1000);
        return json(200, { ok: true, messages: thread.slice(0, limit), has_more: thread.length > limit });
      }
      case 'chat.getPermalink':
        return json(200, {
          ok: true,
          channel: body.channel,
          permalink: `https://hub-test.slack.com/archives/${body.channel}/p${String(body.message_ts).replace('.', '')}`,
        });
      case 'chat.postEphemeral':
        return json(200, { ok: true, channel: body.channel, ts: `${Date.now() / 1000}` });
      default:
        return json(200, { ok: true });
    }
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    apiUrl: `${url}/api/`,
    calls,
    api: (method) => calls.filter((call) => call.path === `/api/${method}`),
    responses: (responseUrl) => calls.filter((call) => url + call.path === responseUrl),
    responseUrl: () => `${url}/respond/${++counter}`,
    setUser: (id, user) => void users.set(id, user),
    setChannel: (id, channel) => void channels.set(id, channel),
    refuseChannel: (channel, error) => void refused.set(channel, error),
    setThread: (channel, ts, messages) => void threads.set(`${channel}/${ts}`, messages),
    addFile(name, bytes, contentType = 'image/png') {
      files.set(name, { bytes, type: contentType });
      return `${url}/files/${name}`;
    },
    async waitFor(predicate, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const value = predicate();
        if (value) return value;
        if (Date.now() > deadline) throw new Error('fake Slack: waited too long');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Slack's v0 request signature: `v0=` HMAC-SHA256 of `v0:<timestamp>:<raw body>` under the signing secret. */
export function slackSignature(secret: string, timestamp: number, body: string): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}
