import { readFileSync } from 'node:fs';
import { PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../bots/commands/registry.js';

/** The Slack and Discord set-up guides hold what the code needs (issue 47). */
const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
const manifest = read('bots/slack/manifest.yaml');
const slackGuide = read('docs/doors/slack.md');
const discordGuide = read('docs/doors/discord.md');

describe('the Slack guide and manifest', () => {
  it('declare every command of the registry', () => {
    const declared = [...manifest.matchAll(/^\s+- command: (\/\S+)$/gm)].map((match) => match[1]);
    const commands = COMMANDS.map((command) => `/${command.name}`);
    expect(declared.sort()).toEqual([...commands].sort());
    for (const command of commands) expect(slackGuide).toContain(`\`${command}\``);
  });

  it("leave no example host once the guide's replacement is made, unfurl_domains included", () => {
    const step = slackGuide.match(/replacing every `([^`]+)` with the host of your\s+`PUBLIC_BASE_URL`/);
    expect(step, 'the guide says which text to replace').not.toBeNull();
    const replaced = manifest.replaceAll(step![1]!, 'hub.mycompany.kr');
    expect(replaced).not.toMatch(/example\.com/);
    expect(replaced).toMatch(/unfurl_domains:\n\s+- hub\.mycompany\.kr\n/);
    for (const [, url] of replaced.matchAll(/(?:url|request_url): (\S+)/g)) expect(url).toBe('https://hub.mycompany.kr/slack/events');
  });

  it('says HTTP mode needs a public HTTPS address or a tunnel, and Socket Mode does not', () => {
    expect(slackGuide).toMatch(/HTTP mode[\s\S]*reachable from the internet over\s+HTTPS[\s\S]*tunnel/);
    expect(slackGuide).toMatch(/Socket Mode[^\n]*no public address/);
  });
});

describe('the Discord guide', () => {
  const { ViewChannel, SendMessages, EmbedLinks, ReadMessageHistory, ManageMessages } = PermissionFlagsBits;
  const notices = ViewChannel | SendMessages | EmbedLinks;
  const warn = notices | ReadMessageHistory;
  const hide = warn | ManageMessages;

  it("gives the invite's permission integers as Discord's bits add up", () => {
    expect(discordGuide).toContain(`**\`${warn}\`**`);
    expect(discordGuide).toContain(`**\`${hide}\`**`);
    expect(discordGuide).toContain(`\`${notices}\``);
    expect(discordGuide).toContain(`permissions=${warn}`);
    for (const flag of [ViewChannel, SendMessages, EmbedLinks, ReadMessageHistory, ManageMessages]) {
      expect(discordGuide).toContain(`\`1 << ${flag.toString(2).length - 1}\` | ${flag}`);
    }
  });
});
