import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, launchChromium, runBrowserTests } from './helpers/browser.js';
import { startTestApp, type TestApp } from './helpers/app.js';

/**
 * The portal's team panel in Chromium (issue 48): an owner invites a developer, the invitee opens
 * the link in another browser context, sets a password and lands signed in with the developer's
 * view; the link does not work twice; the owner makes them a viewer, reads the events in the audit
 * log, filters it and downloads it as CSV.
 */
/** With `PORTAL_SCREENSHOTS=1`, full-page screenshots of each step go to test/artifacts/ (not committed). */
const SCREENSHOTS = process.env.PORTAL_SCREENSHOTS === '1';
const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;
async function shot(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: `${ARTIFACTS}portal-team-${name}.png`, fullPage: true });
}

describe.skipIf(!runBrowserTests)(`portal team in Chromium (${CHROMIUM})`, () => {
  let app: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    app = await startTestApp();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('invites a developer who joins by the link; the owner sees it in the audit log and downloads it', async () => {
    const ownerEmail = `team-owner-${Date.now()}@example.com`;
    const inviteeEmail = `team-dev-${Date.now()}@example.com`;
    const owner = await browser.newPage();
    await owner.goto(app.url);
    await owner.getByLabel('이메일').filter({ visible: true }).fill(ownerEmail);
    await owner.getByLabel('비밀번호').filter({ visible: true }).fill('owner password');
    await owner.getByRole('button', { name: '가입하기' }).click();
    await owner.getByText('가입했습니다. 로그인했어요.').waitFor();
    await expect.poll(() => owner.locator('#whoami').textContent()).toBe(`${ownerEmail} · 역할: 소유자 · 팀: ${ownerEmail}`);

    await owner.locator('#invite-email').fill(inviteeEmail);
    await owner.locator('#invite-role').selectOption('developer');
    await owner.getByRole('button', { name: '초대하기' }).click();
    await owner.locator('#invite-result').waitFor({ state: 'visible' });
    expect(await owner.locator('#invite-note').textContent()).toContain('초대 메일은 보내지 않았습니다');
    const inviteUrl = (await owner.locator('#invite-url').textContent()) ?? '';
    expect(inviteUrl).toMatch(new RegExp(`^${app.url}/#join=[A-Za-z0-9_-]+$`));
    await shot(owner, 'invited');

    // The invitee, in a browser of their own.
    const inviteeContext = await browser.newContext();
    const invitee = await inviteeContext.newPage();
    await invitee.goto(inviteUrl);
    // The page reads the link's fragment once its script runs, after `goto` has returned: wait for it.
    await invitee.getByRole('heading', { name: '팀에 들어가기' }).waitFor();
    await expect.poll(() => invitee.locator('#auth').isVisible()).toBe(false);
    await shot(invitee, 'join');
    await invitee.getByLabel('사용할 비밀번호 (8자 이상)').fill('developer password');
    await invitee.getByRole('button', { name: '비밀번호 정하고 팀에 들어가기' }).click();
    await invitee.getByText(`${ownerEmail} 팀에 들어왔습니다. 로그인했어요.`).waitFor();
    await expect.poll(() => invitee.locator('#whoami').textContent()).toBe(`${inviteeEmail} · 역할: 개발자 · 팀: ${ownerEmail}`);
    // The token left the address bar, and the developer's view has no invitations and no audit log.
    expect(invitee.url()).toBe(`${app.url}/`);
    await invitee.locator(`#members tbody tr`).nth(1).waitFor();
    expect(await invitee.locator('#invite-form').isVisible()).toBe(false);
    expect(await invitee.locator('#audit').isVisible()).toBe(false);
    expect(await invitee.getByRole('button', { name: '새 키 만들기' }).isVisible()).toBe(true);
    expect(await invitee.getByRole('button', { name: '팀 떠나기' }).isVisible()).toBe(true);
    await shot(invitee, 'developer');
    // The link worked once: opened again, it is refused with the server's words.
    await invitee.goto(inviteUrl);
    await invitee.getByLabel('사용할 비밀번호 (8자 이상)').fill('developer password');
    await invitee.getByRole('button', { name: '비밀번호 정하고 팀에 들어가기' }).click();
    await expect
      .poll(() => invitee.locator('#join-error').textContent())
      .toContain('초대 링크가 올바르지 않거나 만료되었거나 이미 사용되었습니다');
    await inviteeContext.close();

    // The owner sees the new member and makes them a viewer (after a confirmation).
    await owner.reload();
    await owner.getByLabel(`역할: ${inviteeEmail}`).selectOption('viewer');
    owner.once('dialog', (dialog) => void dialog.accept());
    await owner.getByRole('button', { name: `역할 바꾸기: ${inviteeEmail}` }).click();
    await owner.getByText(`${inviteeEmail} 님의 역할을 보기 전용(으)로 바꿨습니다.`).waitFor();
    await expect.poll(() => owner.locator('#members tbody').textContent()).toContain('보기 전용');

    // The owner's audit log: the invitation and the joining, filterable.
    await owner.getByRole('button', { name: '보기', exact: true }).click();
    const audit = owner.locator('#audit-events tbody');
    await expect.poll(() => audit.textContent()).toContain('팀원 역할 바뀜');
    expect(await audit.textContent()).toContain('팀원 들어옴');
    expect(await audit.textContent()).toContain('팀원 초대');
    expect(await audit.textContent()).toContain(`member:`);
    await owner.locator('#audit-action').selectOption('member.joined');
    await owner.getByRole('button', { name: '보기', exact: true }).click();
    await expect.poll(() => audit.locator('tr').count()).toBe(1);
    expect(await audit.textContent()).toContain(inviteeEmail);
    await shot(owner, 'audit');
    await owner.locator('#audit-action').selectOption('');

    const [download] = await Promise.all([owner.waitForEvent('download'), owner.getByRole('button', { name: 'CSV 내려받기' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^audit-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile((await download.path())!, 'utf8');
    expect(csv.replace(/^\uFEFF/, '').split('\r\n')[0] ?? csv.split('\n')[0]).toContain(
      'at,actor_kind,actor_id,actor_label,action,target,ip',
    );
    expect(csv).toContain('member.invited');
    expect(csv).toContain('member.joined');
    expect(csv).toContain('member.role_changed');
    expect(csv).not.toContain('#join=');
    await owner.close();
  });
});
