import { z } from 'zod';
import { clip, remainingLine } from './texts.js';
import { defineCommand, integer, text } from './options.js';

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
    const body = await ctx.call('chatbot-rag', { action: 'chat', message: question });
    return {
      title: clip(question, 150),
      text: 'answer' in body ? body.answer : '',
      context: remainingLine(ctx.locale, body.remaining),
      tone: 'ok',
    };
  },
});

const kbSchema = z.discriminatedUnion(
  'sub',
  [
    z.object({ sub: z.literal('add'), content: text('content') }),
    z.object({ sub: z.literal('list') }),
    z.object({ sub: z.literal('delete'), id: integer('id') }),
    z.object({ sub: z.literal('clear') }),
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
  ],
  schema: kbSchema,
  usage: { ko: '/kb add <내용> | /kb list | /kb delete <ID> | /kb clear', en: '/kb add <text> | /kb list | /kb delete <id> | /kb clear' },
  api: 'chatbot-rag',
  slow: true,
  async handle(ctx, options) {
    const input =
      options.sub === 'add'
        ? ({ action: 'index', content: options.content } as const)
        : options.sub === 'delete'
          ? ({ action: 'delete', id: options.id } as const)
          : { action: options.sub };
    const body = await ctx.call('chatbot-rag', input);
    const context = remainingLine(ctx.locale, body.remaining);
    if (!('knowledge_list' in body))
      return {
        title: ctx.t({ ko: '지식 베이스', en: 'Knowledge base' }),
        text: 'message' in body ? body.message : '',
        context,
        tone: 'ok',
      };
    const entries = body.knowledge_list;
    return {
      title: ctx.t({ ko: `지식 항목 ${body.total}개`, en: `${body.total} knowledge entries` }),
      text: entries.length === 0 ? ctx.t({ ko: '저장된 항목이 없습니다.', en: 'No entries yet.' }) : undefined,
      fields: entries.slice(0, 10).map((entry) => ({ name: `#${entry.id}`, value: clip(entry.content, 200) })),
      context,
      tone: 'info',
    };
  },
});
