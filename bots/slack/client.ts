import { LogLevel, WebClient, type WebClientOptions } from '@slack/web-api';
import type { Config } from '../../src/config.js';

/**
 * The one set of Slack Web API client settings (Bolt's app client, the auth check and the
 * watch notifier alike): `SLACK_API_URL` (a fake in tests), 10 s per request and a few quick
 * retries, not the client's default half hour, because a command or a poll cycle waits on them.
 */
export function slackClientOptions(config: Pick<Config, 'SLACK_API_URL'>): WebClientOptions {
  return {
    slackApiUrl: config.SLACK_API_URL,
    timeout: 10_000,
    retryConfig: { retries: 2, minTimeout: 200, maxTimeout: 1000 },
    logLevel: LogLevel.ERROR,
  };
}

/** A Web API client with the bot token and the shared settings. */
export function createSlackClient(config: Pick<Config, 'SLACK_API_URL'>, token: string, extra: WebClientOptions = {}): WebClient {
  return new WebClient(token, { ...slackClientOptions(config), ...extra });
}
