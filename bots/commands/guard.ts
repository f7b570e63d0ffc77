import { z } from 'zod';
import { normaliseHost } from '../../src/operations/link-guard/link-guard.js';
import type { ChannelRef } from '../../src/operations/link-guard/guard-store.js';
import { chatUser } from './attribution.js';
import { defang } from './guard-warning.js';
import { defineCommand, text } from './options.js';
import type { CommandContext, Reply, Text } from './types.js';
import { categoryName } from './urls.js';

const guardSchema = z.discriminatedUnion(
  'sub',
  [
    z.object({ sub: z.literal('on') }),
    z.object({ sub: z.literal('off') }),
    z.object({ sub: z.literal('status') }),
    z.object({ sub: z.literal('log') }),
    z.object({
      sub: z.literal('mode'),
      mode: z.enum(['warn', 'hide'], { error: "모드는 'warn'(경고)이나 'hide'(숨김) 중 하나입니다." }),
    }),
    z.object({
      sub: z.literal('messages'),
      state: z.preprocess(
        (value) => (typeof value === 'string' ? value.toLowerCase() : value),
        z.enum(['on', 'off'], { error: "메시지 판단은 'on'(켜기)이나 'off'(끄기) 중 하나입니다." }),
      ),
    }),
    z.object({ sub: z.literal('allow'), host: text('host') }),
  ],
  { error: "'on', 'off', 'status', 'mode', 'messages', 'log', 'allow' 중 하나를 고르세요." },
);

const LOG_LINES = 10;

const T = {
  onlyInChannel: {
    ko: '`/guard`는 워크스페이스(서버)의 채널에서만 쓸 수 있습니다.',
    en: '`/guard` works only in a channel of a workspace (server).',
  },
  forbidden: {
    ko: '채널 관리자만 바꿀 수 있습니다 (Slack: 워크스페이스 관리자나 채널을 만든 사람, Discord: 채널 관리 권한).',
    en: "Only channel managers can change this (Slack: workspace admins or the channel's creator; Discord: Manage Channels).",
  },
  slackHide: {
    ko: 'Slack 봇은 다른 사람의 메시지를 지울 수 없어(관리자 사용자 토큰이 필요합니다) Slack에서는 `warn`(스레드 경고)만 쓸 수 있습니다. 이 채널은 계속 경고 모드입니다.',
    en: "A Slack bot cannot delete other people's messages (that needs an admin's user token), so on Slack the mode is `warn` (a warning in the thread). This channel stays in warn mode.",
  },
  notOn: {
    ko: '이 채널은 링크 가드가 꺼져 있습니다. `/guard on`으로 켜세요.',
    en: 'The link guard is off in this channel. Turn it on with `/guard on`.',
  },
} satisfies Record<string, Text>;

/**
 * `/guard on | off | status | mode warn|hide | messages on|off | log | allow host`: the link guard of
 * this channel (issue 40); `messages on` judges every message's text too (issue 50).
 */
export const guardCommand = defineCommand({
  name: 'guard',
  description: { ko: '이 채널의 링크를 자동으로 검사합니다 (링크 가드)', en: "Check this channel's links automatically (link guard)" },
  options: [],
  subcommands: [
    { name: 'on', description: { ko: '이 채널의 링크 가드 켜기', en: 'Turn the link guard on here' }, options: [] },
    { name: 'off', description: { ko: '이 채널의 링크 가드 끄기', en: 'Turn the link guard off here' }, options: [] },
    { name: 'status', description: { ko: '링크 가드 설정 보기', en: 'Show the link guard settings' }, options: [] },
    {
      name: 'mode',
      description: { ko: '유해 링크를 찾았을 때: 경고(warn) 또는 숨김(hide, Discord)', en: 'On a harmful link: warn, or hide (Discord)' },
      options: [
        {
          name: 'mode',
          type: 'string',
          required: true,
          choices: ['warn', 'hide'],
          description: { ko: 'warn 또는 hide', en: 'warn or hide' },
        },
      ],
    },
    {
      name: 'messages',
      description: {
        ko: '링크가 없어도 메시지 글을 판단해 확실한 사기에 경고 (on/off)',
        en: 'Judge message texts too, link or not, and warn on sure scams (on/off)',
      },
      options: [
        {
          name: 'state',
          type: 'string',
          required: true,
          choices: ['on', 'off'],
          description: { ko: 'on 또는 off', en: 'on or off' },
        },
      ],
    },
    { name: 'log', description: { ko: '최근 발견한 유해 링크', en: 'Harmful links found lately' }, options: [] },
    {
      name: 'allow',
      description: { ko: '잘못된 경고: 이 호스트는 더 경고하지 않기', en: 'False alarm: stop warning about this host' },
      options: [
        { name: 'host', type: 'string', required: true, description: { ko: '호스트 (예: example.com)', en: 'Host (e.g. example.com)' } },
      ],
    },
  ],
  schema: guardSchema,
  usage: {
    ko: '/guard on | off | status | mode warn|hide | messages on|off | log | allow <호스트>',
    en: '/guard on | off | status | mode warn|hide | messages on|off | log | allow <host>',
  },
  slow: false,
  async handle(ctx, options): Promise<Reply> {
    const { invocation } = ctx;
    const guard = ctx.extra.linkGuard;
    // A Slack DM (`D…`) is no channel to guard: its messages are answered as "스미싱 검사" anyway.
    if (!invocation.workspaceId || !invocation.channelId || (invocation.platform === 'slack' && invocation.channelId.startsWith('D')))
      return note(ctx, T.onlyInChannel, 'info');
    const ref: ChannelRef = { platform: invocation.platform, workspaceId: invocation.workspaceId, channelId: invocation.channelId };

    if (options.sub === 'status') return status(ctx, ref);
    const manager = await (invocation.canManageChannel ?? invocation.canManage)();
    if (!manager) return note(ctx, T.forbidden, 'warn');

    switch (options.sub) {
      case 'on':
        await guard.enable(ref, { locale: ctx.locale }, chatUser(invocation));
        return {
          title: ctx.t({ ko: '🛡️ 링크 가드를 켰습니다', en: '🛡️ Link guard on' }),
          text: ctx.t(
            invocation.platform === 'slack'
              ? {
                  ko: '이제 이 채널의 모든 메시지 링크를 검사해, 유해한 링크에만 스레드로 경고합니다. 봇이 채널에 초대되어 있어야 메시지를 볼 수 있습니다. 검사한 URL마다 연결된 계정의 harmful-url-detection 호출 1회가 쓰입니다 (같은 URL은 10분간 캐시).',
                  en: 'Every link posted here is now checked; only harmful ones get a warning in the thread. The bot must be a member of the channel to see messages. Each URL checked uses one harmful-url-detection call of the linked account (the same URL is cached for 10 minutes).',
                }
              : {
                  ko: '이제 이 채널의 모든 메시지 링크를 검사해, 유해한 링크에만 답장으로 경고합니다. 검사한 URL마다 연결된 계정의 harmful-url-detection 호출 1회가 쓰입니다 (같은 URL은 10분간 캐시).',
                  en: 'Every link posted here is now checked; only harmful ones get a warning as a reply. Each URL checked uses one harmful-url-detection call of the linked account (the same URL is cached for 10 minutes).',
                },
          ),
          tone: 'ok',
        };
      case 'off':
        return (await guard.disable(ref, chatUser(invocation)))
          ? note(ctx, { ko: '이 채널의 링크 가드를 껐습니다.', en: 'The link guard is off in this channel.' }, 'ok')
          : note(ctx, T.notOn, 'info');
      case 'mode': {
        if (options.mode === 'hide' && invocation.platform === 'slack') return note(ctx, T.slackHide, 'warn');
        if (!(await guard.setMode(ref, options.mode, chatUser(invocation)))) return note(ctx, T.notOn, 'info');
        return options.mode === 'hide'
          ? note(
              ctx,
              {
                ko: '숨김 모드: 유해한 링크가 있는 메시지를 지우고 답장으로 알립니다. 봇에 메시지 관리 권한이 없으면 경고만 하고 그렇다고 알려 드립니다.',
                en: 'Hide mode: a message with a harmful link is deleted and a reply says why. Without Manage Messages the bot only warns, and says so.',
              },
              'ok',
            )
          : note(ctx, { ko: '경고 모드: 유해한 링크에 답장으로 경고합니다.', en: 'Warn mode: harmful links get a warning reply.' }, 'ok');
      }
      case 'allow': {
        const host = normaliseHost(options.host);
        if (!host)
          return note(
            ctx,
            {
              ko: '호스트를 알아볼 수 없습니다. 예: `/guard allow example.com`',
              en: 'That is not a host. Example: `/guard allow example.com`',
            },
            'warn',
          );
        if (!(await guard.allow(ref.platform, ref.workspaceId, host, invocation.userId)))
          return note(ctx, { ko: '허용 목록이 가득 찼습니다 (최대 500개).', en: 'The allow list is full (500 hosts).' }, 'warn');
        return {
          title: ctx.t({ ko: '허용 목록에 추가했습니다', en: 'Added to the allow list' }),
          text: `\`${defang(host)}\` ${ctx.t({ ko: '(하위 도메인 포함)의 링크는 이 워크스페이스에서 더 경고하지 않습니다.', en: '(and its subdomains) will not be warned about in this workspace any more.' })}`,
          tone: 'ok',
        };
      }
      case 'messages':
        return messages(ctx, ref, options.state === 'on');
      case 'log':
        return log(ctx, ref);
    }
  },
});

async function messages(ctx: CommandContext, ref: ChannelRef, on: boolean): Promise<Reply> {
  if (!(await ctx.extra.linkGuard.setMessages(ref, on, chatUser(ctx.invocation)))) return note(ctx, T.notOn, 'info');
  return on
    ? note(
        ctx,
        {
          ko: '메시지 판단을 켰습니다: 링크가 없어도 이 채널의 모든 메시지 글을 판단해, 확실한 사기(스미싱)로 보이는 메시지에만 스레드로 경고합니다. 판단은 무료이고, 경고 한 번에 연결된 계정의 harmful-url-detection 호출 1회가 쓰입니다. 메시지 글은 저장하지 않습니다.',
          en: 'Message judging on: every message here is judged, link or not, and only messages that are surely a scam get a warning in the thread. Judging is free; each such warning uses one harmful-url-detection call of the linked account. Message texts are never stored.',
        },
        'ok',
      )
    : note(ctx, { ko: '메시지 판단을 껐습니다. 링크는 계속 검사합니다.', en: 'Message judging off. Links are still checked.' }, 'ok');
}

async function status(ctx: CommandContext, ref: ChannelRef): Promise<Reply> {
  const { channel, allowed } = await ctx.extra.linkGuard.status(ref);
  const fields = [
    {
      name: ctx.t({ ko: '상태', en: 'State' }),
      value: channel ? ctx.t({ ko: '켜짐', en: 'on' }) : ctx.t({ ko: '꺼짐', en: 'off' }),
      inline: true,
    },
  ];
  if (channel) {
    fields.push({ name: ctx.t({ ko: '모드', en: 'Mode' }), value: channel.mode, inline: true });
    fields.push({
      name: ctx.t({ ko: '메시지 판단', en: 'Message judging' }),
      value: channel.messages ? 'on' : 'off',
      inline: true,
    });
    fields.push({ name: ctx.t({ ko: '경고 언어', en: 'Language' }), value: channel.locale === 'en' ? 'English' : '한국어', inline: true });
    if (channel.quotaNoticeAt)
      fields.push({
        name: ctx.t({ ko: '할당량', en: 'Quota' }),
        value: ctx.t({ ko: '소진되어 검사 중지', en: 'used up: checks paused' }),
        inline: true,
      });
  }
  fields.push({
    name: ctx.t({ ko: '허용 호스트 (워크스페이스)', en: 'Allowed hosts (workspace)' }),
    value:
      allowed.length === 0
        ? '-'
        : allowed.slice(0, 20).map(defang).join(', ') + (allowed.length > 20 ? ` … (+${allowed.length - 20})` : ''),
    inline: false,
  });
  return { title: ctx.t({ ko: '🛡️ 링크 가드', en: '🛡️ Link guard' }), fields, tone: 'info' };
}

async function log(ctx: CommandContext, ref: ChannelRef): Promise<Reply> {
  const incidents = await ctx.extra.linkGuard.recentIn(ref.platform, ref.workspaceId, LOG_LINES);
  if (incidents.length === 0)
    return note(ctx, { ko: '최근 90일 동안 찾은 유해 링크가 없습니다.', en: 'No harmful links found in the last 90 days.' }, 'info');
  return {
    title: ctx.t({ ko: `최근 유해 링크 ${incidents.length}건`, en: `Last ${incidents.length} harmful link(s)` }),
    fields: incidents.map((incident) => ({
      name: `${seoulTime(incident.created_at)} · ${defang(incident.host)}`,
      value: `${categoryName(ctx.t, incident.category)} · ${ctx.t({ ko: '채널', en: 'channel' })} ${incident.channel_id} · ${ctx.t({ ko: '작성자', en: 'poster' })} ${incident.poster_id} · ${incident.action}`,
    })),
    context: ctx.t({
      ko: '메시지 내용은 저장하지 않습니다. 기록은 90일간 보관됩니다.',
      en: 'Message texts are never stored. Records are kept for 90 days.',
    }),
    tone: 'info',
  };
}

function seoulTime(iso: string): string {
  return new Date(iso).toLocaleString('sv-SE', { timeZone: 'Asia/Seoul' }).slice(0, 16);
}

function note(ctx: CommandContext, text: Text, tone: Reply['tone']): Reply {
  return { title: ctx.t({ ko: '🛡️ 링크 가드', en: '🛡️ Link guard' }), text: ctx.t(text), tone };
}
