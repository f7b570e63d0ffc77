import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { callJson, migratedDataDir, signUpOver, startServerProcess, stopServerProcess, type ServerProcess } from './helpers/process.js';

/**
 * Issue 48 through the production path: the server process configured only by its environment,
 * a team made over HTTP (invitation, join, a role refused, removal), and its audit log as CSV.
 */
describe('teams on the running service', () => {
  const dataDir = migratedDataDir('aih-teams-');
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await stopServerProcess(server);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('invites, lets the invitee in with their role, ends a removed member at once, and records it all in the audit log', async () => {
    server = startServerProcess({ DATA_DIR: dataDir, PUBLIC_BASE_URL: 'https://hub.example.com' });
    const base = `http://127.0.0.1:${await server.ready}`;
    const owner = await signUpOver(base, 'team-owner');
    const asOwner = { authorization: `Bearer ${owner.token}` };
    const email = `team-viewer-${process.pid}-${Date.now()}@example.com`;

    const invited = await callJson(base, 'POST', '/api/v1/team/invites', { email, role: 'viewer' }, asOwner);
    expect(invited.status).toBe(201);
    expect(invited.body.invite_url).toMatch(/^https:\/\/hub\.example\.com\/#join=[\w-]{40,}$/);
    const token = invited.body.invite_url.split('#join=')[1];
    const joined = await callJson(base, 'POST', '/api/v1/team/join', { token, password: 'viewer passphrase' });
    expect(joined.status).toBe(201);
    const asViewer = { authorization: `Bearer ${joined.body.token}` };

    const refused = await callJson(base, 'POST', '/api/v1/keys', { name: 'not mine to make' }, asViewer);
    expect(refused).toMatchObject({ status: 403, body: { error_code: 'FORBIDDEN_ROLE', roles: ['owner', 'admin', 'developer'] } });
    expect(refused.body.error).toContain('역할만 할 수 있습니다');
    const usage = await callJson(base, 'GET', '/api/v1/usage', undefined, asViewer);
    expect(usage.status).toBe(200);

    const members = (await callJson(base, 'GET', '/api/v1/team/members', undefined, asOwner)).body.members as Array<{
      id: number;
      email: string;
    }>;
    const viewerId = members.find((member) => member.email === email)!.id;
    expect((await callJson(base, 'DELETE', `/api/v1/team/members/${viewerId}`, undefined, asOwner)).status).toBe(200);
    expect((await callJson(base, 'GET', '/api/v1/usage', undefined, asViewer)).status).toBe(401);

    const csv = await fetch(`${base}/api/v1/audit?format=csv`, { headers: asOwner });
    expect(csv.status).toBe(200);
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines.map((line) => line.split(',')[4])).toEqual(['action', 'member.removed', 'member.joined', 'member.invited', 'key.created']);
    expect(lines.join('\n')).not.toContain(token);
  }, 120_000);
});
