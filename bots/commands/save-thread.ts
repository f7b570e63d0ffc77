import type { ThreadAuthors } from '../../src/operations/chatbot/feedback-store.js';
import { MAX_CONTENT_CHARS } from '../../src/operations/chatbot/chatbot.schema.js';
import { channelScope } from './knowledge-scope.js';
import { clip, remainingLine } from './texts.js';
import type { CommandContext, Reply } from './types.js';

/** One message of a thread as the platform gives it: its author's id (absent for a bot or app) and its raw text. */
export interface ThreadMessage {
  author?: string;
  bot?: boolean;
  text: string;
}

/** What a door gives to save a thread: how to load it, how its text reads, and the link back to it. */
export interface ThreadSource {
  load(): Promise<ThreadMessage[]>;
  /** The platform's user mention in raw text; group 1 is the user's id. */
  mentions: RegExp;
  /** Raw text as its reader sees it (Slack's escapes and link markup), after mentions are replaced. */
  decode(text: string): string;
  link(): Promise<string | undefined>;
}

/** Messages of one thread read at most (Slack's and Discord's first page). */
export const MAX_THREAD_MESSAGES = 200;

/**
 * A thread as one knowledge entry (issue 39 item 3): its messages in order, each author shown by
 * role (질문자 for who opened the thread, 답변자 1, 2… in order of first reply, 봇 for apps) or
 * not at all, per the workspace's setting; mentions of people become their role too, so no
 * display name or user id is stored. Whole messages only, up to the entry limit.
 */
export function threadText(messages: ThreadMessage[], mode: ThreadAuthors, source: Pick<ThreadSource, 'mentions' | 'decode'>): string {
  const roles = new Map<string, string>();
  let answerers = 0;
  for (const message of messages) {
    if (message.bot || !message.author || roles.has(message.author)) continue;
    roles.set(message.author, roles.size === 0 ? '질문자' : `답변자 ${++answerers}`);
  }
  const pattern = new RegExp(
    source.mentions.source,
    source.mentions.flags.includes('g') ? source.mentions.flags : `${source.mentions.flags}g`,
  );
  const lines: string[] = [];
  let chars = 0;
  for (const message of messages) {
    const named = message.text.replace(pattern, (_, id: string) => (mode === 'roles' && roles.has(id) ? `@${roles.get(id)}` : '@(사용자)'));
    const text = source.decode(named).trim();
    if (!text) continue;
    const who = message.bot || !message.author ? '봇' : roles.get(message.author)!;
    const line = mode === 'roles' ? `${who}: ${text}` : text;
    const length = [...line].length + 2;
    if (chars + length > MAX_CONTENT_CHARS) break;
    lines.push(line);
    chars += length;
  }
  return lines.join('\n\n');
}

/** "지식으로 저장": the message's whole thread stored in its channel's scope, with a link back to it. */
export async function saveThread(ctx: CommandContext, thread: ThreadSource | undefined): Promise<Reply> {
  const info = (ko: string, en: string): Reply => ({ title: ctx.t({ ko: '안내', en: 'Note' }), text: ctx.t({ ko, en }), tone: 'info' });
  if (!thread) return info('이 메시지의 스레드를 읽을 수 없습니다.', "This message's thread cannot be read.");
  const { platform, workspaceId } = ctx.invocation;
  const mode = workspaceId ? await ctx.knowledge.settings.threadAuthors(platform, workspaceId) : 'roles';
  let loaded: ThreadMessage[];
  try {
    loaded = await thread.load();
  } catch (error) {
    // Not in the channel, no history scope, or the platform refused: say what to check.
    ctx.logger.warn({ err: error }, 'thread could not be read');
    return info(
      '스레드를 읽지 못했습니다. 봇이 이 채널에 초대되어 있고 메시지 기록을 읽을 권한이 있는지 확인하세요.',
      'The thread could not be read. Check that the bot is in this channel and may read its history.',
    );
  }
  const messages = loaded.slice(0, MAX_THREAD_MESSAGES);
  const content = threadText(messages, mode, thread);
  if (!content) return info('저장할 글이 없는 스레드입니다.', 'The thread has no text to save.');
  const link = await thread.link().catch(() => undefined);
  const firstLine = content.split('\n')[0]!.replace(/^(질문자|답변자 \d+|봇): /, '');
  const body = await ctx.call('chatbot-rag', {
    action: 'index',
    content,
    scope: channelScope(ctx.invocation),
    source: clip(`스레드: ${firstLine}`, 80),
    ...(link ? { source_url: link } : {}),
  });
  const id = 'id' in body ? body.id : undefined;
  return {
    title: ctx.t({ ko: '지식으로 저장했습니다', en: 'Saved as knowledge' }),
    text: ctx.t({
      ko: `스레드의 메시지 ${messages.length}개를 항목 ${id}(으)로 저장했습니다. 이 채널에서 \`/ask\`로 물으면 답에 쓰입니다. (지울 때: \`/kb delete ${id}\`)`,
      en: `Saved ${messages.length} message(s) of the thread as entry ${id}. Questions asked with \`/ask\` in this channel use it. (To remove: \`/kb delete ${id}\`)`,
    }),
    context: remainingLine(ctx.locale, body.remaining),
    tone: 'ok',
  };
}
