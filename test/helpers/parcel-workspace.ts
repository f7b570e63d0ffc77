import { expect } from 'vitest';
import { createChannelNotifier } from '../../bots/notifier.js';
import { loadConfig } from '../../src/config.js';
import { startFakeSlack, type FakeSlack } from '../fakes/slack-server.js';
import { startFakeTracker, type FakeTracker } from '../fakes/tracker-server.js';
import { startTestApp, type TestApp, type TestUser } from './app.js';
import { slashCommands } from './slack-commands.js';

export interface ParcelWorkspace {
  slack: FakeSlack;
  tracker: FakeTracker;
  app: TestApp;
  /** Subscribed to delivery-tracking; its key is linked to the workspace by `UADMIN` in `C1`. */
  owner: TestUser;
  close(): Promise<void>;
}

/**
 * What the parcel and watch commands need through the real Slack door: a fake workspace and a
 * fake tracker, the app with the channel notifier, and an account subscribed to delivery
 * tracking whose key a workspace admin linked with `/link`.
 */
export async function startParcelWorkspace(options: {
  team: string;
  secret: string;
  botToken: string;
  bucket: string;
}): Promise<ParcelWorkspace> {
  const slack = await startFakeSlack({ botToken: options.botToken, teamId: options.team });
  const tracker = await startFakeTracker();
  const env = {
    SLACK_SIGNING_SECRET: options.secret,
    SLACK_BOT_TOKEN: options.botToken,
    SLACK_API_URL: slack.apiUrl,
    DELIVERY_TRACKER_URL: tracker.url,
  };
  const app = await startTestApp(env, {
    delivery: { rateLimit: { bucket: `${options.bucket}-${process.pid}-${Date.now()}`, perSecond: 200 } },
    watches: { notifier: createChannelNotifier(loadConfig({ ...env, LOG_LEVEL: 'silent' })) },
  });
  const owner = await app.signUp();
  expect((await app.post('/api/v1/subscriptions', { api: 'delivery-tracking' }, owner.apiKey)).status).toBe(201);
  slack.setUser('UADMIN', { is_admin: true });
  const slash = slashCommands({ appUrl: () => app.url, slack: () => slack, secret: options.secret, team: options.team });
  await (await slash('/link', owner.apiKey, 'C1', 'UADMIN')).response();
  return {
    slack,
    tracker,
    app,
    owner,
    async close() {
      await app.close();
      await slack.close();
      await tracker.close();
    },
  };
}
