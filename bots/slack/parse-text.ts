import type { BotCommand, OptionDef, RawOptions } from '../commands/types.js';

const PUBLIC_WORD = /\s+(공개|public)\s*$/i;

/**
 * A Slack command's text read as the command's options, in their order (CONTRACT §6): one
 * word each, the `rest` option takes the remainder with its line breaks, and a trailing
 * `공개`/`public` asks for a public answer where the command allows it.
 */
export function parseSlackText(command: BotCommand, text: string): RawOptions {
  let remaining = ` ${text.trim()}`;
  const raw: RawOptions = {};
  if (command.publicable && PUBLIC_WORD.test(remaining)) {
    raw.public = true;
    remaining = remaining.replace(PUBLIC_WORD, '');
  }
  let options: OptionDef[] = command.options;
  if (command.subcommands) {
    const [word, after] = nextWord(remaining);
    raw.sub = word?.toLowerCase();
    remaining = after;
    options = command.subcommands.find((sub) => sub.name === raw.sub)?.options ?? [];
  }
  for (const option of options) {
    if (option.type === 'attachment' || option.name === 'public') continue;
    if (option.rest) {
      const rest = remaining.trim();
      if (rest) raw[option.name] = rest;
      remaining = '';
      continue;
    }
    const [word, after] = nextWord(remaining);
    if (word !== undefined) raw[option.name] = word;
    remaining = after;
  }
  return raw;
}

function nextWord(text: string): [string | undefined, string] {
  const match = /^\s*(\S+)/.exec(text);
  return match ? [match[1], text.slice(match[0].length)] : [undefined, ''];
}
