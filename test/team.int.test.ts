import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatUser } from '../bots/commands/attribution.js';
import { accounts, apiKeys, auditEvents, sessions, teamInvites, teamMembers } from '../db/schema.js';
import { AUDIT_ACTIONS } from '../src/platform/audit-log.js';
import { seoulDate } from '../src/seoul-time.js';
import { ownTestDatabase, startTestApp, type TestApp, type TestUser } from './helpers/app.js';

/**
 * Issue 48, teams: members with roles, invitations, removal, and the audit log, through HTTP on
 * the real runtime (PGlite, and PostgreSQL on its pass).
 */
let app: TestApp;
let owner: TestUser;

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
let counter = 0;
const uniqueEmail = (name: string) => `${name}-${process.pid}-${Date.now()}-${++counter}@example.com`;

async function call(method: string, path: string, token: string | undefined, body?: unknown, base = app.url) {
  const res = await fetch(base + path, {
    method,
    headers: { ...(token ? bearer(token) : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const type = res.headers.get('content-type') ?? '';
  return { status: res.status, headers: res.headers, text, body: type.includes('json') ? JSON.parse(text) : undefined };
}

/** Invites `role` into the owner's team and joins with the link: the new member's session. */
async function addMember(role: string, by = owner.token): Promise<{ email: string; password: string; token: string; id: number }> {
  const email = uniqueEmail(role);
  const password = `pass-${role}-long enough`;
  const invited = await call('POST', '/api/v1/team/invites', by, { email, role });
  expect(invited.status).toBe(201);
  const token = new URL(invited.body.invite_url).hash.replace('#join=', '');
  const joined = await call('POST', '/api/v1/team/join', undefined, { token, password });
  expect(joined.status).toBe(201);
  const me = await call('GET', '/api/v1/account', joined.body.token);
  return { email, password, token: joined.body.token, id: me.body.user.member_id };
}

beforeAll(async () => {
  app = await startTestApp();
  owner = await app.signUp();
});
afterAll(async () => {
  await app?.close();
});

describe('members', () => {
  it('makes a sign-up a team of one whose owner keeps their keys and quotas', async () => {
    const me = await call('GET', '/api/v1/account', owner.token);
    expect(me.body.user).toMatchObject({ id: owner.accountId, email: owner.email, role: 'owner' });
    expect(me.body.team).toEqual({ id: owner.accountId, email: owner.email });
    const members = await call('GET', '/api/v1/team/members', owner.token);
    expect(members.body.members).toEqual([expect.objectContaining({ email: owner.email, role: 'owner', id: me.body.user.member_id })]);
  });

  it('lets an invitation be used once, within 7 days, by an e-mail no team has', async () => {
    const email = uniqueEmail('once');
    const invited = await call('POST', '/api/v1/team/invites', owner.token, { email, role: 'viewer' });
    expect(invited.status).toBe(201);
    expect(invited.headers.get('cache-control')).toBe('no-store');
    expect(invited.body.invite).toMatchObject({ email, role: 'viewer' });
    expect(Date.parse(invited.body.invite.expires_at) - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    const token = new URL(invited.body.invite_url).hash.replace('#join=', '');
    // Only its hash is stored.
    const stored = await app.runtime.db.execute(sql`select token_hash from team_invites where email = ${email}`);
    expect(JSON.stringify(stored)).not.toContain(token);

    const first = await call('POST', '/api/v1/team/join', undefined, { token, password: 'viewer password 1' });
    expect(first.status).toBe(201);
    const again = await call('POST', '/api/v1/team/join', undefined, { token, password: 'viewer password 1' });
    expect(again.status).toBe(404);
    expect(again.body.error).toContain('초대 링크');
    // The joined member logs in with their own password.
    expect((await app.post('/api/v1/auth/login', { email, password: 'viewer password 1' })).status).toBe(200);

    // An e-mail that is another team's member: 409 when invited, and when joining.
    const other = await app.signUp();
    const taken = await call('POST', '/api/v1/team/invites', owner.token, { email: other.email, role: 'developer' });
    expect(taken.status).toBe(409);
    expect(taken.body.error_code).toBe('EMAIL_TAKEN');
    expect((await app.post('/api/v1/auth/register', { email, password: 'another password' })).status).toBe(409);
  });

  it('refuses an invitation past its 7 days', async () => {
    let now = new Date();
    const timed = await startTestApp({}, { clock: () => now });
    try {
      const founder = await timed.signUp();
      const invited = await fetch(`${timed.url}/api/v1/team/invites`, {
        method: 'POST',
        headers: { ...bearer(founder.token), 'content-type': 'application/json' },
        body: JSON.stringify({ email: uniqueEmail('late'), role: 'developer' }),
      }).then((res) => res.json() as Promise<any>);
      const token = new URL(invited.invite_url).hash.replace('#join=', '');
      now = new Date(now.getTime() + 7 * 86_400_000 + 1000);
      expect((await timed.post('/api/v1/team/join', { token, password: 'late password 1' })).status).toBe(404);
    } finally {
      await timed.close();
    }
  });

  it('keeps the last owner an owner, and lets only an owner make or change an owner', async () => {
    const ownerId = (await call('GET', '/api/v1/account', owner.token)).body.user.member_id;
    const admin = await addMember('admin');
    // The only owner can neither be demoted nor leave.
    const demoted = await call('PATCH', `/api/v1/team/members/${ownerId}`, owner.token, { role: 'admin' });
    expect(demoted.status).toBe(409);
    expect(demoted.body.error).toContain('마지막 소유자');
    expect((await call('DELETE', `/api/v1/team/members/${ownerId}`, owner.token)).status).toBe(409);
    // An admin may not touch an owner, nor invite or promote one.
    expect((await call('PATCH', `/api/v1/team/members/${ownerId}`, admin.token, { role: 'viewer' })).body.error_code).toBe(
      'FORBIDDEN_ROLE',
    );
    expect((await call('DELETE', `/api/v1/team/members/${ownerId}`, admin.token)).status).toBe(403);
    expect((await call('POST', '/api/v1/team/invites', admin.token, { email: uniqueEmail('o'), role: 'owner' })).status).toBe(403);
    expect((await call('PATCH', `/api/v1/team/members/${admin.id}`, admin.token, { role: 'owner' })).status).toBe(403);
    // The owner makes the admin an owner; now either may step down.
    const promoted = await call('PATCH', `/api/v1/team/members/${admin.id}`, owner.token, { role: 'owner' });
    expect(promoted.body.member).toMatchObject({ id: admin.id, role: 'owner' });
    expect((await call('PATCH', `/api/v1/team/members/${admin.id}`, owner.token, { role: 'developer' })).status).toBe(200);
    expect((await call('PATCH', `/api/v1/team/members/${admin.id}`, owner.token, { role: 'nobody' })).status).toBe(400);
    // Another team's member is no member here.
    const stranger = await app.signUp();
    const strangerId = (await call('GET', '/api/v1/account', stranger.token)).body.user.member_id;
    expect((await call('DELETE', `/api/v1/team/members/${strangerId}`, owner.token)).status).toBe(404);
  });

  it('keeps both owners when two demote each other at once: one stays', async () => {
    const second = await addMember('owner');
    const ownerId = (await call('GET', '/api/v1/account', owner.token)).body.user.member_id;
    // Set back up: the second owner steps down unless the race below demotes the first.
    const [a, b] = await Promise.all([
      call('PATCH', `/api/v1/team/members/${ownerId}`, second.token, { role: 'admin' }),
      call('PATCH', `/api/v1/team/members/${second.id}`, owner.token, { role: 'admin' }),
    ]);
    // The loser finds either no other owner left (409) or that it is no owner itself any more (403).
    expect([a.status, b.status].filter((status) => status === 200)).toHaveLength(1);
    expect([409, 403]).toContain(a.status === 200 ? b.status : a.status);
    const owners = (await call('GET', '/api/v1/team/members', a.status === 200 ? second.token : owner.token)).body.members.filter(
      (member: { role: string }) => member.role === 'owner',
    );
    expect(owners).toHaveLength(1);
    // Whoever is still owner restores the first owner, then removes the second member.
    const survivor = a.status === 200 ? second.token : owner.token;
    await call('PATCH', `/api/v1/team/members/${ownerId}`, survivor, { role: 'owner' });
    await call('PATCH', `/api/v1/team/members/${second.id}`, owner.token, { role: 'viewer' });
    expect((await call('DELETE', `/api/v1/team/members/${second.id}`, owner.token)).status).toBe(200);
  });

  it("ends a removed member's sessions at once and keeps the keys they made with the team", async () => {
    const developer = await addMember('developer');
    const made = await call('POST', '/api/v1/keys', developer.token, { name: 'made by developer' });
    expect(made.status).toBe(201);
    expect((await app.post('/api/v1/url/shorten', { url: 'https://example.com/dev' }, made.body.api_key)).status).toBe(200);
    const [row] = await app.runtime.db.select().from(apiKeys).where(eq(apiKeys.id, made.body.key.id));
    expect(row!.createdBy).toBe(developer.id);

    expect((await call('DELETE', `/api/v1/team/members/${developer.id}`, owner.token)).status).toBe(200);
    expect((await call('GET', '/api/v1/keys', developer.token)).status).toBe(401);
    expect(await app.runtime.db.select().from(sessions).where(eq(sessions.memberId, developer.id))).toEqual([]);
    expect((await app.post('/api/v1/auth/login', { email: developer.email, password: developer.password })).status).toBe(401);
    // The key works on, and the audit log says who made it.
    expect((await app.post('/api/v1/url/shorten', { url: 'https://example.com/dev2' }, made.body.api_key)).status).toBe(200);
    const created = (await call('GET', '/api/v1/audit?action=key.created', owner.token)).body.events.find((event: { target: string }) =>
      event.target.startsWith(`key:${made.body.key.id} `),
    );
    expect(created.actor).toEqual({ kind: 'member', id: String(developer.id), label: developer.email });
  });

  it('lets any member leave, and only owners and admins remove someone else', async () => {
    const viewer = await addMember('viewer');
    const developer = await addMember('developer');
    const refused = await call('DELETE', `/api/v1/team/members/${viewer.id}`, developer.token);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error_code: 'FORBIDDEN_ROLE', roles: ['owner', 'admin'] });
    expect((await call('DELETE', `/api/v1/team/members/${developer.id}`, developer.token)).status).toBe(200);
    expect((await call('GET', '/api/v1/team/members', developer.token)).status).toBe(401);
    expect((await call('DELETE', `/api/v1/team/members/${viewer.id}`, owner.token)).status).toBe(200);
  });

  it('changes a password after checking the current one, and ends the other sessions only', async () => {
    const member = await addMember('viewer');
    const second = (await app.post('/api/v1/auth/login', { email: member.email, password: member.password })).body.token as string;
    const wrong = await call('POST', '/api/v1/auth/password', member.token, {
      current_password: 'not it',
      new_password: 'a new passphrase',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.field).toBe('current_password');
    const changed = await call('POST', '/api/v1/auth/password', member.token, {
      current_password: member.password,
      new_password: 'a new passphrase',
    });
    expect(changed.status).toBe(200);
    expect((await call('GET', '/api/v1/account', member.token)).status).toBe(200);
    expect((await call('GET', '/api/v1/account', second)).status).toBe(401);
    expect((await app.post('/api/v1/auth/login', { email: member.email, password: member.password })).status).toBe(401);
    expect((await app.post('/api/v1/auth/login', { email: member.email, password: 'a new passphrase' })).status).toBe(200);
  });
});

/**
 * Who may call what with a login token: the table is the contract (CONTRACT §3 Teams: owner;
 * admin — keys, subscriptions, members; developer — keys; viewer — usage, logs), written out
 * here rather than read from the code, and held against every route the document says takes a
 * login token.
 */
const ALL = ['owner', 'admin', 'developer', 'viewer'];
const KEYS = ['owner', 'admin', 'developer'];
const MANAGERS = ['owner', 'admin'];
const ROLE_TABLE: Record<string, string[]> = {
  'GET /api/v1/account': ALL,
  'POST /api/v1/auth/logout': ALL,
  'POST /api/v1/auth/password': ALL,
  'GET /api/v1/usage': ALL,
  'GET /api/v1/keys': ALL,
  'GET /api/v1/keys/errors': ALL,
  'POST /api/v1/keys': KEYS,
  'PATCH /api/v1/keys/{id}': KEYS,
  'POST /api/v1/keys/{id}/rotate': KEYS,
  'DELETE /api/v1/keys/{id}': KEYS,
  'POST /api/v1/subscriptions': MANAGERS,
  'GET /api/v1/team/members': ALL,
  'POST /api/v1/team/invites': MANAGERS,
  'PATCH /api/v1/team/members/{id}': MANAGERS,
  // Removing someone else; anyone may remove themselves (leave), tested above.
  'DELETE /api/v1/team/members/{id}': MANAGERS,
  'GET /api/v1/audit': MANAGERS,
  'GET /api/v1/operator/status': ALL,
  'GET /api/v1/guard/incidents': ALL,
  'GET /api/v1/url/lists': ALL,
  'GET /api/v1/chatbot/feedback': ALL,
  'DELETE /api/v1/chatbot/feedback/{id}': KEYS,
  'POST /api/v1/delivery/watch': KEYS,
  'GET /api/v1/delivery/watch': ALL,
  'DELETE /api/v1/delivery/watch/{id}': KEYS,
};

describe('roles on every account route', () => {
  it('covers every route that takes a login token, and refuses exactly the roles the table leaves out', async () => {
    const doc = (await app.get('/openapi.json')).body as { paths: Record<string, Record<string, { security?: object[] }>> };
    const tokenRoutes = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, operation]) => (operation.security ?? []).some((entry) => 'bearer' in entry))
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(tokenRoutes.sort()).toEqual(Object.keys(ROLE_TABLE).sort());

    const team = await app.signUp();
    const sessionOf: Record<string, string> = { owner: team.token };
    for (const role of ['admin', 'developer', 'viewer']) {
      const email = uniqueEmail(`table-${role}`);
      const invited = await call('POST', '/api/v1/team/invites', team.token, { email, role });
      const token = new URL(invited.body.invite_url).hash.replace('#join=', '');
      sessionOf[role] = (await call('POST', '/api/v1/team/join', undefined, { token, password: 'table password 1' })).body.token;
    }
    const outcomes: string[] = [];
    const expected: string[] = [];
    for (const route of Object.keys(ROLE_TABLE)) {
      const [method, template] = route.split(' ') as [string, string];
      // Ids no row has: an allowed role gets past the role check to a 400 or 404, never a change.
      const path = template.replace(/\{id\}/g, '999999');
      for (const role of ALL) {
        // Logging out ends the session: a session of its own.
        const token = route === 'POST /api/v1/auth/logout' ? await logIn(team, role, sessionOf[role]!) : sessionOf[role]!;
        const res = await call(method, path, token, method === 'GET' || method === 'DELETE' ? undefined : {});
        outcomes.push(`${route} ${role} ${res.body?.error_code === 'FORBIDDEN_ROLE' ? 'refused' : 'allowed'}`);
        expected.push(`${route} ${role} ${ROLE_TABLE[route]!.includes(role) ? 'allowed' : 'refused'}`);
        if (res.body?.error_code === 'FORBIDDEN_ROLE') expect(res.status).toBe(403);
      }
    }
    expect(outcomes.filter((line, i) => line !== expected[i])).toEqual([]);
  }, 60_000);

  it('lets an API key act for the team on the routes that take either', async () => {
    const key = await app.post('/api/v1/subscriptions', { api: 'delivery-tracking' }, owner.apiKey);
    expect(key.status).toBe(201);
    const viewer = await addMember('viewer');
    const refused = await call('POST', '/api/v1/subscriptions', viewer.token, { api: 'delivery-tracking' });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toContain('소유자·관리자');
  });
});

/** A fresh session for the role (the logout route ends the one it is called with). */
async function logIn(team: TestUser, role: string, fallback: string): Promise<string> {
  if (role === 'owner') return (await app.post('/api/v1/auth/login', { email: team.email, password: team.password })).body.token;
  const me = await call('GET', '/api/v1/account', fallback);
  return (await app.post('/api/v1/auth/login', { email: me.body.user.email, password: 'table password 1' })).body.token;
}

describe('the audit log', () => {
  it('records every action of the contract, with who, what and from where, and never a secret', async () => {
    const team = await app.signUp();
    const secrets: string[] = [team.password, team.token, team.apiKey];
    const made = await call('POST', '/api/v1/keys', team.token, { name: 'ci' });
    secrets.push(made.body.api_key);
    await call('PATCH', `/api/v1/keys/${made.body.key.id}`, team.token, { name: 'ci renamed' });
    const rotated = await call('POST', `/api/v1/keys/${made.body.key.id}/rotate`, team.token, { grace_hours: 0 });
    secrets.push(rotated.body.api_key);
    await call('DELETE', `/api/v1/keys/${rotated.body.key.id}`, team.token);
    await call('POST', '/api/v1/subscriptions', team.token, { api: 'delivery-tracking' });
    // Subscribing again changes nothing, and records nothing.
    await call('POST', '/api/v1/subscriptions', team.token, { api: 'delivery-tracking' });

    const email = uniqueEmail('audited');
    const invited = await call('POST', '/api/v1/team/invites', team.token, { email, role: 'developer' });
    const inviteToken = new URL(invited.body.invite_url).hash.replace('#join=', '');
    secrets.push(inviteToken);
    const joined = await call('POST', '/api/v1/team/join', undefined, { token: inviteToken, password: 'member password 9' });
    secrets.push('member password 9', joined.body.token);
    const memberId = (await call('GET', '/api/v1/account', joined.body.token)).body.user.member_id;
    await call('PATCH', `/api/v1/team/members/${memberId}`, team.token, { role: 'viewer' });
    await call('POST', '/api/v1/auth/password', joined.body.token, {
      current_password: 'member password 9',
      new_password: 'member password 10',
    });
    secrets.push('member password 10');
    await call('DELETE', `/api/v1/team/members/${memberId}`, team.token);

    // Chat: `/link` and `/guard` by a Slack user, through the runtime the bot commands use.
    const key = (await app.runtime.platform.apiKeys.authenticate(team.apiKey))!;
    const place = { platform: 'slack' as const, workspaceId: `TAUDIT${counter}`, channelId: 'CAUDIT' };
    const slackUser = chatUser({ platform: 'slack', userId: 'U0AUDIT' });
    await app.runtime.platform.workspaceLinks.link(place, { accountId: key.id, keyId: key.keyId, keyPrefix: key.keyPrefix }, slackUser);
    await app.runtime.linkGuard.enable(place, { locale: 'ko' }, slackUser);
    await app.runtime.linkGuard.setMessages(place, true, slackUser);

    const listed = await call('GET', '/api/v1/audit', team.token);
    expect(listed.status).toBe(200);
    const events = listed.body.events as Array<{
      action: string;
      actor: { kind: string; id: string; label: string };
      target: string;
      ip: string | null;
    }>;
    expect(new Set(events.map((event) => event.action))).toEqual(new Set(AUDIT_ACTIONS));
    expect(events.filter((event) => event.action === 'subscription.changed')).toHaveLength(1);
    const byAction = (action: string) => events.filter((event) => event.action === action);
    expect(byAction('key.renamed')[0]).toMatchObject({
      actor: { kind: 'member', label: team.email },
      ip: expect.stringMatching(/127\.0\.0\.1/),
    });
    expect(byAction('key.renamed')[0]!.target).toContain('ci renamed');
    expect(byAction('member.joined')[0]!.actor.label).toBe(email);
    expect(byAction('member.role_changed')[0]!.target).toContain('developer→viewer');
    expect(byAction('guard.changed').map((event) => event.target)).toEqual([
      `channel:slack/${place.workspaceId}/CAUDIT messages on`,
      `channel:slack/${place.workspaceId}/CAUDIT on`,
    ]);
    expect(byAction('guard.changed')[0]!.actor).toEqual({ kind: 'slack', id: 'U0AUDIT', label: 'slack U0AUDIT' });
    // Newest first.
    expect(events[0]!.action).toBe('guard.changed');

    // No key, password or token anywhere: not in the answer, the CSV or the rows.
    const csv = await call('GET', '/api/v1/audit?format=csv', team.token);
    const rows = await app.runtime.db.select().from(auditEvents).where(eq(auditEvents.accountId, team.accountId));
    for (const secret of secrets) {
      expect(listed.text).not.toContain(secret);
      expect(csv.text).not.toContain(secret);
      expect(JSON.stringify(rows)).not.toContain(secret);
    }
    // Another team sees only its own (the key its sign-up made).
    const other = await app.signUp();
    const theirs = await call('GET', '/api/v1/audit', other.token);
    expect(theirs.body.events.map((event: { action: string; actor: { label: string } }) => [event.action, event.actor.label])).toEqual([
      ['key.created', other.email],
    ]);
  });

  it('filters by action and time, and exports CSV that Excel opens safely', async () => {
    const team = await app.signUp();
    await call('POST', '/api/v1/keys', team.token, { name: '=HYPERLINK("http://evil.example","x")' });
    const csv = await call('GET', '/api/v1/audit?format=csv&action=key.created', team.token);
    expect(csv.status).toBe(200);
    // fetch's text() drops a BOM: the bytes keep it.
    const raw = await fetch(`${app.url}/api/v1/audit?format=csv`, { headers: bearer(team.token) }).then((res) => res.arrayBuffer());
    expect([...new Uint8Array(raw).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toMatch(/^attachment; filename="audit-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe('at,actor_kind,actor_id,actor_label,action,target,ip');
    // The sign-up's key and this one, its name quoted as RFC 4180 says (test/audit-csv.test.ts holds the cells).
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain('"key:');
    expect(lines[1]).toContain('=HYPERLINK(""http://evil.example"",""x"")"');

    // Dates are Korean days: `to` is today in Korea, through its end.
    const today = seoulDate(new Date());
    const json = await call('GET', `/api/v1/audit?action=key.created&from=2020-01-01&to=${today}`, team.token);
    expect(json.body.events).toHaveLength(2);
    expect((await call('GET', '/api/v1/audit?from=2020-01-01&to=2020-01-02', team.token)).body.events).toEqual([]);
    expect((await call('GET', '/api/v1/audit?limit=1', team.token)).body.events).toHaveLength(1);
    const bad = await call('GET', '/api/v1/audit?action=key.stolen', team.token);
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('action');
    expect((await call('GET', '/api/v1/audit?from=2026-02-30', team.token)).status).toBe(400);
    expect((await call('GET', '/api/v1/audit?from=2026-02-02&to=2026-02-01', team.token)).status).toBe(400);
  });

  it('is append-only: no update, no delete before a year; housekeeping purges what is older', async () => {
    // A database of its own on PostgreSQL: housekeeping runs every purge, and on the shared
    // database it would take rows of other files that are old to it while they run.
    const own = await ownTestDatabase('audit_purge');
    const isolated = await startTestApp(own.env);
    try {
      await appendOnlyAndPurged(isolated);
    } finally {
      await isolated.close();
      await own.drop();
    }
  });

  it('is written in the transaction of the change: when the record fails, the change does not happen', async () => {
    // A database of its own: the trigger below refuses every audit row while it stands.
    const own = await ownTestDatabase('audit_tx');
    const isolated = await startTestApp(own.env);
    try {
      const team = await isolated.signUp();
      const at = (method: string, path: string, body?: unknown) => call(method, path, team.token, body, isolated.url);
      const keyCount = async () => (await isolated.runtime.db.select().from(apiKeys).where(eq(apiKeys.accountId, team.accountId))).length;
      const before = await keyCount();
      await refuseAuditRows(isolated, true);
      expect((await at('POST', '/api/v1/keys', { name: 'never' })).status).toBe(500);
      expect((await at('DELETE', `/api/v1/keys/${(await at('GET', '/api/v1/keys')).body.keys[0].id}`)).status).toBe(500);
      expect((await at('POST', '/api/v1/team/invites', { email: uniqueEmail('never'), role: 'viewer' })).status).toBe(500);
      expect((await at('POST', '/api/v1/subscriptions', { api: 'harmful-url-detection' })).status).toBe(500);
      await refuseAuditRows(isolated, false);

      // Nothing of it happened: no new key, the old one alive, no invitation, no subscription.
      expect(await keyCount()).toBe(before);
      expect((await isolated.post('/api/v1/url/shorten', { url: 'https://example.com/alive' }, team.apiKey)).status).toBe(200);
      expect(await isolated.runtime.db.select().from(teamInvites).where(eq(teamInvites.accountId, team.accountId))).toEqual([]);
      const usage = await at('GET', '/api/v1/usage');
      expect(usage.body.usage.find((row: { api: string }) => row.api === 'harmful-url-detection').subscribed).toBe(false);
      // With the log writable again the same change goes through, with its row.
      expect((await at('POST', '/api/v1/keys', { name: 'now' })).status).toBe(201);
      expect(
        (await at('GET', '/api/v1/audit?action=key.created')).body.events.map((event: { target: string }) => event.target.split(' ').pop()),
      ).toEqual(['now', 'test']);
    } finally {
      await isolated.close();
      await own.drop();
    }
  });
});

/** Installs (or removes) a trigger that refuses every new audit row. */
async function refuseAuditRows(target: TestApp, on: boolean): Promise<void> {
  const { db } = target.runtime;
  if (on) {
    await db.execute(sql`create or replace function test_refuse_audit() returns trigger language plpgsql as $$
      begin raise exception 'audit refused by the test'; end $$`);
    await db.execute(sql`create trigger test_refuse_audit before insert on audit_events for each row execute function test_refuse_audit()`);
  } else {
    await db.execute(sql`drop trigger if exists test_refuse_audit on audit_events`);
  }
}

describe.skipIf(process.env.TEST_DB !== 'postgres')('two instances on one PostgreSQL', () => {
  it("refuses a removed member's next request on the other instance too", async () => {
    const other = await startTestApp();
    try {
      const member = await addMember('developer');
      expect((await fetch(`${other.url}/api/v1/keys`, { headers: bearer(member.token) })).status).toBe(200);
      expect((await call('DELETE', `/api/v1/team/members/${member.id}`, owner.token)).status).toBe(200);
      expect((await fetch(`${other.url}/api/v1/keys`, { headers: bearer(member.token) })).status).toBe(401);
      expect((await fetch(`${app.url}/api/v1/keys`, { headers: bearer(member.token) })).status).toBe(401);
      expect(await app.runtime.db.select().from(teamMembers).where(eq(teamMembers.id, member.id))).toEqual([]);
    } finally {
      await other.close();
    }
  });
});

/** The audit log refuses changes to its rows, and housekeeping purges rows past their year, on `app`'s database. */
async function appendOnlyAndPurged(app: TestApp): Promise<void> {
  const team = await app.signUp();
  await call('POST', '/api/v1/keys', team.token, { name: 'kept' }, app.url);
  const [row] = await app.runtime.db.select().from(auditEvents).where(eq(auditEvents.accountId, team.accountId));
  await expect(app.runtime.db.update(auditEvents).set({ target: 'forged' }).where(eq(auditEvents.id, row!.id))).rejects.toThrow();
  await expect(app.runtime.db.delete(auditEvents).where(eq(auditEvents.id, row!.id))).rejects.toThrow();

  // A row past its year (written as a migration of old data would be) goes with housekeeping.
  const old = new Date(Date.now() - 400 * 86_400_000);
  await app.runtime.db.insert(auditEvents).values({
    accountId: team.accountId,
    at: old,
    actorKind: 'system',
    actorId: 'test',
    actorLabel: 'test',
    action: 'key.created',
    target: 'key:0 old',
  });
  const removed = await app.runtime.housekeeping.run();
  expect(removed.auditEvents).toBe(1);
  const left = await app.runtime.db.select().from(auditEvents).where(eq(auditEvents.accountId, team.accountId)).orderBy(auditEvents.id);
  expect(left.map((event) => event.target.split(' ').pop())).toEqual(['test', 'kept']);

  // An account that goes takes its events with it.
  await app.runtime.db.delete(accounts).where(eq(accounts.id, team.accountId));
  expect(await app.runtime.db.select().from(auditEvents).where(eq(auditEvents.accountId, team.accountId))).toEqual([]);
}
