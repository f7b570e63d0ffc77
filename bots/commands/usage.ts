import type { BotPlatform } from '../../src/platform/workspace-links.js';
import type { BotCommand, OptionDef, Text } from './types.js';

/**
 * How to type a command on its platform. Slack reads words in order, so its usage is the
 * command's own positional line (`/tone <말투> <문장>`); Discord fills named option fields, so
 * its usage is made from the options (`/tone style:<말투> text:<바꿀 문장>`), never Slack's.
 */
export function commandUsage(command: Pick<BotCommand, 'name' | 'usage' | 'options' | 'subcommands'>, platform: BotPlatform): Text {
  if (platform === 'slack') return command.usage;
  const line = (prefix: string, options: OptionDef[], locale: keyof Text) =>
    [`/${prefix}`, ...options.map((option) => field(option, locale))].join(' ');
  const lines = (locale: keyof Text) =>
    command.subcommands && command.subcommands.length > 0
      ? command.subcommands.map((sub) => line(`${command.name} ${sub.name}`, sub.options, locale)).join(' | ')
      : line(command.name, command.options, locale);
  return { ko: lines('ko'), en: lines('en') };
}

function field(option: OptionDef, locale: keyof Text): string {
  const what = option.type === 'attachment' ? (locale === 'ko' ? '파일 첨부' : 'attach a file') : option.description[locale];
  const value = option.type === 'boolean' ? 'True' : `<${what}>`;
  return option.required ? `${option.name}:${value}` : `[${option.name}:${value}]`;
}
