import { expect } from 'vitest';
import { slackSignature, type FakeSlack } from '../fakes/slack-server.js';

let triggers = 0;

/**
 * Delivers a body to the app's Slack door as Slack does: signed with the signing secret at
 * `timestamp` (now unless given; a retry is signed anew), with any extra headers (retries).
 */
export function postToSlackDoor(
  appUrl: string,
  secret: string,
  body: string,
  contentType: string,
  options: { headers?: Record<string, string>; timestamp?: number } = {},
): Promise<Response> {
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  return fetch(`${appUrl}/slack/events`, {
    method: 'POST',
    headers: {
      'content-type': contentType,
      'x-slack-request-timestamp': String(timestamp),
      'x-slack-signature': slackSignature(secret, timestamp, body),
      ...options.headers,
    },
    body,
  });
}

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
    const ack = await postToSlackDoor(options.appUrl(), options.secret, body, 'application/x-www-form-urlencoded');
    expect(ack.status).toBe(200);
    return { response: () => slack.waitFor(() => slack.responses(responseUrl)[0]?.body) };
  };
}
