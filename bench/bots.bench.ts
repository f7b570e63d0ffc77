import { createHmac, generateKeyPairSync, sign } from 'node:crypto';
import { measureHttp, report, startBareServer, startBenchService } from './lib.js';

/**
 * The bot doors' own cost, at 32 connections, beside a bare node:http server: a Discord PING
 * (raw body, Ed25519 verification, PONG) and a signed Slack slash command up to Bolt's
 * acknowledgement (HMAC check, form parsing, routing). Both must stay far under the
 * platforms' 3-second window; the follow-ups go to a bare local "Slack".
 */
export async function run(): Promise<void> {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const publicKeyHex = publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('hex');
  const fakeSlack = await startBareServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true,"user_id":"UBOT","team_id":"T1","user":{"id":"U1","locale":"ko-KR"}}');
    });
  });
  const secret = 'bench-signing-secret';
  const service = await startBenchService({
    DISCORD_APPLICATION_ID: '1',
    DISCORD_PUBLIC_KEY: publicKeyHex,
    SLACK_SIGNING_SECRET: secret,
    SLACK_BOT_TOKEN: 'xoxb-bench',
    SLACK_API_URL: `${fakeSlack.url}/api/`,
  });

  const bare = await startBareServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"type":1}');
    });
  });

  const timestamp = String(Math.floor(Date.now() / 1000));
  const ping = JSON.stringify({ id: '1', application_id: '1', type: 1, token: 't', version: 1 });
  const discordHeaders = {
    'content-type': 'application/json',
    'x-signature-timestamp': timestamp,
    'x-signature-ed25519': sign(null, Buffer.from(timestamp + ping), privateKey).toString('hex'),
  };
  const options = { method: 'POST' as const, headers: discordHeaders, body: ping };
  const discord = await measureHttp('service POST /discord/interactions (PING)', `${service.base}/discord/interactions`, options);
  const baseline = await measureHttp('bare node:http JSON', bare.url, options);
  report('Discord PING with Ed25519 verification (32 connections, 5 s)', [discord], baseline);

  const form = new URLSearchParams({
    team_id: 'T1',
    user_id: 'U1',
    command: '/untrack',
    text: '123456789012',
    response_url: `${fakeSlack.url}/respond`,
    trigger_id: 'bench',
    api_app_id: 'A1',
  }).toString();
  const slackHeaders = {
    'content-type': 'application/x-www-form-urlencoded',
    'x-slack-request-timestamp': timestamp,
    'x-slack-signature': `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${form}`).digest('hex')}`,
  };
  const slackOptions = { method: 'POST' as const, headers: slackHeaders, body: form };
  const slack = await measureHttp('service POST /slack/events (/untrack ack)', `${service.base}/slack/events`, slackOptions);
  const slackBaseline = await measureHttp('bare node:http JSON', bare.url, slackOptions);
  report('Slack signed slash command to its ack (32 connections, 5 s)', [slack], slackBaseline);
  console.log(`ack p99: Discord ${discord.p99Ms} ms, Slack ${slack.p99Ms} ms (platform window 3000 ms)`);

  await bare.close();
  await service.close();
  await fakeSlack.close();
}
