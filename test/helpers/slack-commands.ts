import { expect } from 'vitest';
import { slackSignature, type FakeSlack } from '../fakes/slack-server.js';

let triggers = 0;

/**
 * Slash commands as Slack sends them to the app's door (`/slack/events`, form-encoded and signed
 * with the signing secret; the app and the fake are read when a command is sent, as test files
 * start them in `beforeAll`); `response()` waits for the answer the bot posts to its response_url.
 */
export function slashCommands(options: { appUrl: () => string; slack: () => FakeSlack; secret: string; team: string }) {
  return async function slash(command: string, text: string, channel: string, user = 'UASKER') {
    const slack = options.slack();
    const responseUrl = slack.responseUrl();
    const body = new URLSearchParams({
      team_id: options.team,
      channel_id: channel,
      user_id: user,
      command,
      text,
      response_url: responseUrl,
      trigger_id: `t-${++triggers}`,
      api_app_id: 'A1',
    }).toString();
    const timestamp = Math.floor(Date.now() / 1000);
    const ack = await fetch(`${options.appUrl()}/slack/events`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-slack-request-timestamp': String(timestamp),
        'x-slack-signature': slackSignature(options.secret, timestamp, body),
      },
      body,
    });
    expect(ack.status).toBe(200);
    return { response: () => slack.waitFor(() => slack.responses(responseUrl)[0]?.body) };
  };
}
