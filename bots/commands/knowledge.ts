import { z } from 'zod';
import { clip, remainingLine } from './texts.js';
import { defineCommand, integer, text } from './options.js';
import { askScopes } from './knowledge-scope.js';
import type { CommandContext, Reply } from './types.js';

/** `/ask question`: the knowledge chatbot's `chat`. */
export const askCommand = defineCommand({
  name: 'ask',
  description: { ko: '저장된 지식으로 질문에 답합니다', en: 'Answer a question from the stored knowledge' },
  options: [{ name: 'question', type: 'string', required: true, rest: true, description: { ko: '질문', en: 'Question' } }],
  schema: z.object({ question: text('question') }),
  usage: { ko: '/ask <질문>', en: '/ask <question>' },
  api: 'chatbot-rag',
  slow: true,
  async handle(ctx, { question }) {
    return askReply(ctx, question);
  },
});

/**
 * The answer to a question asked in a channel: that channel's (and server's) knowledge with the
 * common entries, the passage it rests on quoted with its source's name and link, and 👍/👎.
 */
export async function askReply(ctx: CommandContext, question: string): Promise<Reply> {
  const body = await ctx.call('chatbot-rag', { action: 'chat', message: question, scope: askScopes(ctx.invocation) });
  const answer = 'answer' in body ? body : undefined;
  const first = answer?.sources[0];
  return {
    title: clip(question, 250),
    text: answer?.answer ?? '',
    quote: first && answer?.passage ? { text: clip(answer.passage, 900), source: first.source, url: first.url } : undefined,
    feedback: first ? { question } : undefined,
    context: remainingLine(ctx.locale, body.remaining),
    tone: 'ok',
  };
}

const kbSchema = z.discriminatedUnion(
  'sub',
  [
    z.object({ sub: z.literal('add'), content: text('content') }),
    z.object({ sub: z.literal('list') }),
    z.object({ sub: z.literal('delete'), id: integer('id') }),
    z.object({ sub: z.literal('clear') }),
    z.object({ sub: z.literal('authors'), mode: z.enum(['roles', 'none'], { error: "'roles' 또는 'none'을 고르세요." }) }),
  ],
  { error: "'add', 'list', 'delete', 'clear' 중 하나를 고르세요." },
);

/** `/kb add content | list | delete id | clear`: the account's knowledge entries. */
export const kbCommand = defineCommand({
  name: 'kb',
  description: { ko: '지식 베이스 항목을 추가·조회·삭제합니다', en: 'Add, list and delete knowledge entries' },
  options: [],
  subcommands: [
    {
      name: 'add',
      description: { ko: '지식 항목 추가', en: 'Add an entry' },
      options: [{ name: 'content', type: 'string', required: true, rest: true, description: { ko: '저장할 내용', en: 'Text to store' } }],
    },
    { name: 'list', description: { ko: '지식 항목 목록', en: 'List entries' }, options: [] },
    {
      name: 'delete',
      description: { ko: '지식 항목 삭제', en: 'Delete an entry' },
      options: [{ name: 'id', type: 'integer', required: true, description: { ko: '항목 ID', en: 'Entry id' } }],
    },
    { name: 'clear', description: { ko: '모든 지식 항목 삭제', en: 'Delete every entry' }, options: [] },
    {
      name: 'authors',
      description: { ko: '저장하는 스레드의 작성자 표시 (관리자)', en: 'How saved threads name their authors (managers)' },
      options: [
        {
          name: 'mode',
          type: 'string',
          required: true,
          choices: ['roles', 'none'],
          description: { ko: 'roles: 질문자·답변자로, none: 이름 없이', en: 'roles: asker/answerer, none: no names' },
        },
      ],
    },
  ],
  schema: kbSchema,
  usage: {
    ko: '/kb add <내용 또는 URL> | /kb list | /kb delete <ID> | /kb clear | /kb authors roles|none',
    en: '/kb add <text or URL> | /kb list | /kb delete <id> | /kb clear | /kb authors roles|none',
  },
  api: 'chatbot-rag',
  slow: true,
  async handle(ctx, options) {
    if (options.sub === 'authors') return setThreadAuthors(ctx, options.mode);
    // A lone http(s) address is a page to fetch and store (its main text, the URL as its source).
    const page = options.sub === 'add' && /^https?:\/\/\S+$/i.test(options.content.trim()) ? options.content.trim() : undefined;
    const input =
      options.sub === 'add'
        ? page
          ? ({ action: 'index', url: page } as const)
          : ({ action: 'index', content: options.content } as const)
        : options.sub === 'delete'
          ? ({ action: 'delete', id: options.id } as const)
          : options.sub === 'list'
            ? // Listed in a channel: only what may answer there (never another channel's threads).
              ({ action: 'list', scope: askScopes(ctx.invocation) } as const)
            : { action: options.sub };
    const body = await ctx.call('chatbot-rag', input);
    const context = remainingLine(ctx.locale, body.remaining);
    if ('id' in body && options.sub === 'add') {
      // The new entry's id is what `/kb delete` takes later.
      return {
        title: ctx.t({ ko: '지식을 저장했습니다', en: 'Saved to the knowledge base' }),
        text: ctx.t({
          ko: `항목 ID: ${body.id}${page ? ` · ${clip(body.source ?? page, 200)}` : ''} (지울 때: \`/kb delete ${body.id}\`)`,
          en: `Entry id: ${body.id}${page ? ` · ${clip(body.source ?? page, 200)}` : ''} (to remove it: \`/kb delete ${body.id}\`)`,
        }),
        context,
        tone: 'ok',
      };
    }
    if (!('knowledge_list' in body))
      return {
        title: ctx.t({ ko: '지식 베이스', en: 'Knowledge base' }),
        // The core's confirmation, or its English twin for an English-locale user.
        text:
          'deleted' in body
            ? ctx.t({ ko: body.message, en: `Deleted all ${body.deleted} entries.` })
            : 'id' in body
              ? ctx.t({ ko: body.message, en: `Entry ${body.id} deleted.` })
              : '',
        context,
        tone: 'ok',
      };
    const entries = body.knowledge_list;
    return {
      title: ctx.t({ ko: `지식 항목 ${body.total}개`, en: `${body.total} knowledge entries` }),
      text: entries.length === 0 ? ctx.t({ ko: '저장된 항목이 없습니다.', en: 'No entries yet.' }) : undefined,
      fields: entries.slice(0, 10).map((entry) => ({
        name: `#${entry.id}${entry.source ? ` ${clip(entry.source, 80)}` : ''}`,
        value: clip(entry.content, 200),
      })),
      context,
      tone: 'info',
    };
  },
});

/** `/kb authors roles|none`: how this workspace's saved threads name their authors (managers only). */
async function setThreadAuthors(ctx: CommandContext, mode: 'roles' | 'none'): Promise<Reply> {
  const { workspaceId, platform } = ctx.invocation;
  if (!workspaceId || !(await ctx.invocation.canManage()))
    return {
      title: ctx.t({ ko: '관리자만 바꿀 수 있습니다', en: 'Managers only' }),
      text: ctx.t({
        ko: '워크스페이스(서버) 관리자만 이 설정을 바꿀 수 있습니다.',
        en: 'Only a workspace (server) manager can change this.',
      }),
      tone: 'warn',
    };
  await ctx.knowledge.settings.setThreadAuthors(platform, workspaceId, mode);
  return {
    title: ctx.t({ ko: '스레드 저장 설정을 바꿨습니다', en: 'Thread saving updated' }),
    text:
      mode === 'roles'
        ? ctx.t({
            ko: '저장하는 스레드의 작성자는 질문자·답변자 같은 역할로 표시합니다.',
            en: 'Saved threads name authors by role (asker, answerer).',
          })
        : ctx.t({ ko: '저장하는 스레드에는 작성자를 표시하지 않습니다.', en: 'Saved threads carry no author names.' }),
    tone: 'ok',
  };
}
