import { ROLE_LABELS } from '../src/platform/roles.js';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.js';
import { inviteMessage } from '../src/providers/mail.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { startFakeSmtp, type FakeSmtp } from './fakes/smtp-server.js';

/**
 * Invitation mail (issue 48, CONTRACT §2 `SMTP_URL`): sent through a local SMTP server after the
 * invitation is committed; without SMTP_URL, or when the server cannot be reached, the invitation
 * still stands and its link is answered. The token, the link and the address never reach the log.
 */
describe('invitation mail', () => {
  let smtp: FakeSmtp;
  const lines: string[] = [];
  const logger = () => createLogger('info', { write: (line: string) => void lines.push(line) });
  const apps: TestApp[] = [];

  async function appWith(env: Record<string, string>): Promise<TestApp> {
    const app = await startTestApp({ LOG_LEVEL: 'info', ...env }, { logger: logger() });
    apps.push(app);
    return app;
  }

  async function invite(app: TestApp, email: string) {
    const owner = await app.signUp();
    const res = await fetch(`${app.url}/api/v1/team/invites`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.token}` },
      body: JSON.stringify({ email, role: 'developer' }),
    });
    const body = (await res.json()) as { invite: { expires_at: string }; invite_url: string; mailed: boolean };
    return { status: res.status, body, owner };
  }

  beforeAll(async () => {
    smtp = await startFakeSmtp();
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await smtp?.close();
  });

  it('is sent with SMTP_URL: Korean text and HTML with the link, the role and the expiry in Korea time', async () => {
    const app = await appWith({ SMTP_URL: smtp.url, SMTP_FROM: 'AI Utility Hub <hub@example.kr>' });
    const seen = smtp.mails.length;
    const { status, body, owner } = await invite(app, 'min.mailed@example.com');
    expect(status).toBe(201);
    expect(body.mailed).toBe(true);
    expect(body.invite_url).toMatch(new RegExp(`^${app.url}/#join=[A-Za-z0-9_-]{20,}$`));

    const mail = await smtp.next(seen);
    expect(mail).toMatchObject({ from: 'hub@example.kr', to: ['min.mailed@example.com'], user: 'hub' });
    expect(mail.headers).toMatch(/^Subject: /m);
    expect(mail.headers).toMatch(/^From: AI Utility Hub <hub@example\.kr>/m);
    const text = mail.parts.find((part) => part.type === 'text/plain')?.body ?? '';
    const html = mail.parts.find((part) => part.type === 'text/html')?.body ?? '';
    expect(text).toContain(body.invite_url);
    expect(text).toContain(`${owner.email} 팀에 개발자(developer) 역할로 초대했습니다`);
    const expiry = inviteMessage({
      to: 'x',
      teamEmail: owner.email,
      inviterEmail: owner.email,
      roleLabel: ROLE_LABELS.developer,
      url: body.invite_url,
      expiresAt: new Date(body.invite.expires_at),
    });
    expect(text.replace(/\r\n/g, '\n')).toBe(expiry.text);
    expect(text).toMatch(/\d{4}년 \d{1,2}월 \d{1,2}일\([일월화수목금토]\) \d{2}:\d{2}\(한국 시간\)까지 유효합니다/);
    expect(html).toContain(`<a href="${body.invite_url}">`);
    // No tracking: no images, no remote content, nothing but the link.
    expect(html).not.toMatch(/<img|src=|<script/i);
    expect([...html.matchAll(/href="([^"]+)"/g)].map((match) => match[1])).toEqual([body.invite_url]);
  });

  it('is not sent without SMTP_URL: the answer says so and carries the link', async () => {
    const app = await appWith({});
    const seen = smtp.mails.length;
    const { status, body } = await invite(app, 'min.unmailed@example.com');
    expect(status).toBe(201);
    expect(body).toMatchObject({ success: true, mailed: false, invite: { email: 'min.unmailed@example.com', role: 'developer' } });
    expect(body.invite_url).toContain('/#join=');
    expect(smtp.mails.length).toBe(seen);
  });

  it('failing (an SMTP server that cannot be reached) never fails the invitation', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const app = await appWith({ SMTP_URL: `smtp://hub:pw@127.0.0.1:${port}` });
    const before = lines.length;
    const { status, body } = await invite(app, 'min.unreachable@example.com');
    expect(status).toBe(201);
    expect(body.mailed).toBe(false);
    expect(body.invite_url).toContain('/#join=');
    const warned = lines.slice(before).map((line) => JSON.parse(line) as { msg: string; smtp?: { code?: string } });
    expect(warned.find((line) => line.msg.startsWith('invitation mail not sent'))).toMatchObject({ smtp: { code: 'ESOCKET' } });

    // The invitation stands: the invitee can join with the link.
    const token = body.invite_url.slice(body.invite_url.indexOf('#join=') + 6);
    const join = await app.post('/api/v1/team/join', { token, password: 'joining password' });
    expect(join.status).toBe(201);
  });

  it('never writes a token, a link, an invitee address or the SMTP password to the log', () => {
    const log = lines.join('');
    expect(log).toContain('invitation mail on: smtp://127.0.0.1');
    expect(log).not.toContain('#join=');
    expect(log).not.toMatch(/min\.(un)?mailed@|min\.unreachable@/);
    expect(log).not.toContain('s3cret-smtp');
  });
});
