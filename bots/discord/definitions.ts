import {
  ApplicationCommandType,
  ContextMenuCommandBuilder,
  PermissionFlagsBits,
  SlashCommandBuilder,
  type RESTPostAPIApplicationCommandsJSONBody,
  type SlashCommandAttachmentOption,
  type SlashCommandBooleanOption,
  type SlashCommandIntegerOption,
  type SlashCommandStringOption,
  type SlashCommandSubcommandBuilder,
} from 'discord.js';
import { MESSAGE_ACTIONS } from '../commands/message-actions.js';
import { COMMANDS } from '../commands/registry.js';
import { clip } from '../commands/texts.js';
import type { OptionDef, Text } from '../commands/types.js';

/** What slash commands and subcommands share: adding options. */
interface OptionHost {
  addStringOption(build: (option: SlashCommandStringOption) => SlashCommandStringOption): unknown;
  addIntegerOption(build: (option: SlashCommandIntegerOption) => SlashCommandIntegerOption): unknown;
  addBooleanOption(build: (option: SlashCommandBooleanOption) => SlashCommandBooleanOption): unknown;
  addAttachmentOption(build: (option: SlashCommandAttachmentOption) => SlashCommandAttachmentOption): unknown;
}

/** Discord's descriptions: Korean by default, English for English clients (max 100 characters). */
const describe = (text: Text) => ({ ko: clip(text.ko, 100), en: { 'en-US': clip(text.en, 100), 'en-GB': clip(text.en, 100) } });

function addOptions(host: OptionHost, options: OptionDef[]): void {
  for (const option of options) {
    const { ko, en } = describe(option.description);
    const base = <
      T extends {
        setName(n: string): T;
        setDescription(d: string): T;
        setDescriptionLocalizations(l: Record<string, string>): T;
        setRequired(r: boolean): T;
      },
    >(
      builder: T,
    ) => builder.setName(option.name).setDescription(ko).setDescriptionLocalizations(en).setRequired(option.required);
    if (option.type === 'string') {
      host.addStringOption((builder) => {
        const built = base(builder);
        if (option.choiceNames) return built.addChoices(...option.choiceNames);
        return option.choices ? built.addChoices(...option.choices.map((choice) => ({ name: choice, value: choice }))) : built;
      });
    } else if (option.type === 'integer') host.addIntegerOption((builder) => base(builder).setMinValue(1));
    else if (option.type === 'boolean') host.addBooleanOption((builder) => base(builder));
    else host.addAttachmentOption((builder) => base(builder));
  }
}

/** Every application command, built from the one registry: slash commands and the message context menus. */
export function discordCommandDefinitions(): RESTPostAPIApplicationCommandsJSONBody[] {
  const slash = COMMANDS.map((command) => {
    const { ko, en } = describe(command.description);
    const builder = new SlashCommandBuilder().setName(command.name).setDescription(ko).setDescriptionLocalizations(en);
    // Discord hides the command from members without Manage Server (admins can widen it per server).
    if (command.managersOnly) builder.setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild);
    if (command.subcommands) {
      for (const sub of command.subcommands) {
        builder.addSubcommand((subBuilder: SlashCommandSubcommandBuilder) => {
          const text = describe(sub.description);
          subBuilder.setName(sub.name).setDescription(text.ko).setDescriptionLocalizations(text.en);
          addOptions(subBuilder, sub.options);
          return subBuilder;
        });
      }
    } else {
      addOptions(builder, command.options);
    }
    return builder.toJSON();
  });
  const menus = MESSAGE_ACTIONS.map((action) =>
    new ContextMenuCommandBuilder()
      .setName(action.name.ko)
      .setNameLocalizations({ 'en-US': action.name.en, 'en-GB': action.name.en })
      .setType(ApplicationCommandType.Message)
      .toJSON(),
  );
  return [...slash, ...menus];
}
