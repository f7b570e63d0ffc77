import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Minimal Slack Web API and Discord REST fakes for channel posts (the watch notices):
 * `chat.postMessage` and `POST /api/v10/channels/{id}/messages`. Channels are known, or
 * scripted as deleted / the bot removed; every post is recorded.
 */

export interface ChannelPost {
  platform: 'slack' | 'discord';
  channel: string;
  text: string;
  authorization: string | undefined;
}

export interface FakeChannels {
  slackApiUrl: string;
  discordApiUrl: string;
  posts: ChannelPost[];
  to(platform: 'slack' | 'discord', channel: string): ChannelPost[];
  /** The channel is gone (Slack `channel_not_found`, Discord 404 Unknown Channel). */
  remove(platform: 'slack' | 'discord', channel: string): void;
  /** The bot is not a member / lacks access (Slack `not_in_channel`, Discord 403 Missing Access 50001). */
  exclude(platform: 'slack' | 'discord', channel: string): void;
  close(): Promise<void>;
}

export async function startFakeChannels(options: { slackToken: string; discordToken: string }): Promise<FakeChannels> {
  const posts: ChannelPost[] = [];
  const removed = new Set<string>();
  const excluded = new Set<string>();
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const path = (req.url ?? '').split('?')[0] ?? '';
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    const body = (req.headers['content-type'] ?? '').includes('json')
      ? JSON.parse(raw || '{}')
      : Object.fromEntries(new URLSearchParams(raw));
    if (path === '/slack/api/chat.postMessage') {
      if (req.headers.authorization !== `Bearer ${options.slackToken}`) return json(200, { ok: false, error: 'invalid_auth' });
      const channel = String(body.channel);
      if (removed.has(`slack:${channel}`)) return json(200, { ok: false, error: 'channel_not_found' });
      if (excluded.has(`slack:${channel}`)) return json(200, { ok: false, error: 'not_in_channel' });
      posts.push({ platform: 'slack', channel, text: String(body.text), authorization: req.headers.authorization });
      return json(200, { ok: true, channel, ts: `${posts.length}.000100` });
    }
    const discord = /^\/discord\/api\/v10\/channels\/([^/]+)\/messages$/.exec(path);
    if (discord && req.method === 'POST') {
      if (req.headers.authorization !== `Bot ${options.discordToken}`) return json(401, { message: '401: Unauthorized', code: 0 });
      const channel = decodeURIComponent(discord[1]!);
      if (removed.has(`discord:${channel}`)) return json(404, { message: 'Unknown Channel', code: 10003 });
      if (excluded.has(`discord:${channel}`)) return json(403, { message: 'Missing Access', code: 50001 });
      posts.push({ platform: 'discord', channel, text: String(body.content), authorization: req.headers.authorization });
      return json(200, { id: String(posts.length), channel_id: channel, content: body.content });
    }
    // Discord DMs: open (or reuse) the DM channel with a user, then post to it as to any channel.
    if (path === '/discord/api/v10/users/@me/channels' && req.method === 'POST') {
      if (req.headers.authorization !== `Bot ${options.discordToken}`) return json(401, { message: '401: Unauthorized', code: 0 });
      return json(200, { id: `dm-${body.recipient_id}`, type: 1, recipients: [{ id: body.recipient_id }] });
    }
    return json(404, { ok: false, error: 'unknown_method' });
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    slackApiUrl: `${url}/slack/api/`,
    discordApiUrl: `${url}/discord/api`,
    posts,
    to: (platform, channel) => posts.filter((post) => post.platform === platform && post.channel === channel),
    remove: (platform, channel) => void removed.add(`${platform}:${channel}`),
    exclude: (platform, channel) => void excluded.add(`${platform}:${channel}`),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
