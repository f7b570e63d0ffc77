import { z } from 'zod';
import { AppError } from '../../src/errors.js';
import type { ChannelTarget } from '../../src/operations/delivery-watch/channels.js';
import { watchCreateSchema } from '../../src/operations/delivery-watch/watch.schema.js';
import { parseInput } from '../../src/validation.js';
import type { CommandContext, Reply } from './types.js';
import { defineCommand, flag, text } from './options.js';
import { clip, remainingLine } from './texts.js';

const WAYBILL = /^(?:[\d-]{8,}|[A-Za-z]{2}\d{9}[A-Za-z]{2})$/;
const WATCH_WORD = /^(true|1|yes|on|y|watch|감시|알림)$/i;
const DIGEST = 'digest';
const DIGEST_WORD = /^(digest|요약|다이제스트)$/i;

/**
 * `/track 640812345678 [watch]`: a number without a carrier is looked up with `carrier_id: auto`
 * (the core detects the carrier from the number's format). Names are resolved by the core too.
 */
function withoutCarrier(raw: unknown): unknown {
  if (!raw || typeof raw !== 'object') return raw;
  const options = raw as Record<string, unknown>;
  const carrier = typeof options.carrier === 'string' ? options.carrier.trim() : '';
  const number = typeof options.number === 'string' ? options.number.trim() : undefined;
  // `/track digest on [09:00]` / `off`: the channel's daily digest, not a lookup.
  if (DIGEST_WORD.test(carrier)) {
    const words = [number, typeof options.watch === 'string' ? options.watch.trim() : undefined].filter(Boolean);
    return { carrier: DIGEST, number: words.join(' ') || 'status' };
  }
  // `/track <번호> <택배사>`: the number first, then the carrier (a correction of a guess is remembered by the core).
  if (WAYBILL.test(carrier) && number !== undefined && !WATCH_WORD.test(number) && !WAYBILL.test(number)) {
    return { ...options, carrier: number, number: carrier };
  }
  if (!WAYBILL.test(carrier) || (number !== undefined && !WATCH_WORD.test(number))) return raw;
  return { ...options, carrier: 'auto', number: carrier, watch: options.watch ?? (number !== undefined ? number : undefined) };
}

/** `/track carrier number [watch]`: tracking with the AI analysis. */
export const trackCommand = defineCommand({
  name: 'track',
  description: { ko: '택배 배송을 조회하고 AI 분석을 보여 줍니다', en: 'Track a parcel with an AI analysis' },
  options: [
    {
      name: 'carrier',
      type: 'string',
      required: true,
      description: {
        ko: '택배사 (예: CJ, 우체국, 롯데, 한진) 또는 운송장 번호만 (택배사 자동 감지)',
        en: 'Carrier (e.g. kr.cjlogistics), or just the number to detect it',
      },
    },
    { name: 'number', type: 'string', required: false, description: { ko: '운송장 번호', en: 'Tracking number' } },
    { name: 'watch', type: 'boolean', required: false, description: { ko: '변경되면 이 채널에 알림', en: 'Post changes to this channel' } },
    { name: 'public', type: 'boolean', required: false, description: { ko: '채널에 공개', en: 'Post to the channel' } },
  ],
  schema: z.preprocess(withoutCarrier, z.object({ carrier: text('carrier'), number: text('number'), watch: flag, public: flag })),
  usage: {
    ko: '/track [택배사] <운송장 번호> [watch] [공개] · /track <번호> <택배사> · /track digest on [09:00]|off',
    en: '/track [carrier] <number> [watch] [public] · /track <number> <carrier> · /track digest on [09:00]|off',
  },
  api: 'delivery-tracking',
  slow: true,
  publicable: true,
  async handle(ctx, options): Promise<Reply> {
    if (options.carrier === DIGEST) return digestCommand(ctx, options.number);
    const body = await ctx.call('delivery-tracking', { carrier_id: options.carrier, track_id: options.number, ai: true });
    const latest = body.progresses.slice(-3).reverse();
    const fields = [
      {
        name: ctx.t({ ko: '택배사', en: 'Carrier' }),
        value: body.carrier ? ctx.t({ ko: body.carrier.name_ko, en: body.carrier.name }) : '-',
        inline: true,
      },
      { name: ctx.t({ ko: '상태', en: 'Status' }), value: body.state?.text ?? '-', inline: true },
      ...(body.estimated_arrival
        ? [
            {
              name: ctx.t({ ko: '예상 도착', en: 'Expected' }),
              value: `${body.estimated_arrival.date}${body.estimated_arrival.earliest !== body.estimated_arrival.latest ? ` (${body.estimated_arrival.earliest}~${body.estimated_arrival.latest})` : ''} · ${ctx.t(CONFIDENCE[body.estimated_arrival.confidence])}`,
              inline: true,
            },
          ]
        : []),
      ...latest.map((step) => ({
        name: `${step.time ? step.time.slice(5, 16).replace('T', ' ') : ctx.t({ ko: '시간 미상', en: 'time unknown' })} ${step.status.text}`,
        value: clip([step.location.name, step.description].filter(Boolean).join(' · ') || '-', 200),
      })),
    ];
    const watchNote = options.watch ? `\n\n${await startWatch(ctx, body.carrier?.id ?? options.carrier, options.number)}` : '';
    const others = (body.carrier_candidates ?? []).filter((candidate) => candidate.found && candidate.id !== body.carrier?.id);
    const candidatesNote =
      others.length > 0
        ? `\n\n${ctx.t({
            ko: `ℹ️ ${others.map((candidate) => candidate.name_ko).join(', ')}에서도 이 번호가 조회됩니다. 택배사가 다르면 /track ${options.number} <택배사> 로 다시 조회하세요(이 워크스페이스에서 기억합니다).`,
            en: `ℹ️ ${others.map((candidate) => candidate.name).join(', ')} also know this number. If the carrier is wrong, run /track ${options.number} <carrier> (remembered for this workspace).`,
          })}`
        : '';
    return {
      title: ctx.t({ ko: `📦 ${options.number}`, en: `📦 ${options.number}` }),
      text: (body.ai_analysis ?? '') + candidatesNote + watchNote || undefined,
      fields,
      context: remainingLine(ctx.locale, body.remaining),
      tone: body.state?.id === 'delivered' ? 'ok' : 'info',
    };
  },
});

/** The channel of the invocation as a watch target, or undefined (a DM without a channel). */
function channelOf(ctx: CommandContext): ChannelTarget | undefined {
  const { platform, channelId, workspaceId } = ctx.invocation;
  return channelId ? { platform, channelId, ...(workspaceId ? { workspaceId } : {}) } : undefined;
}

/** `/track … watch`: changes of the parcel are posted to this channel; the lookup already paid for it. */
async function startWatch(ctx: CommandContext, carrierId: string, trackId: string): Promise<string> {
  const channel = channelOf(ctx);
  if (!channel) return ctx.t({ ko: '🔔 변경 알림은 채널에서만 켤 수 있어요.', en: '🔔 Watching works in channels only.' });
  try {
    const input = parseInput(watchCreateSchema, { carrier_id: carrierId, track_id: trackId });
    await ctx.watches.create(ctx.account!, input, { channel, requestedBy: ctx.invocation.userId, announce: true, logger: ctx.logger });
    return ctx.t({
      ko: '🔔 배송 상태가 바뀌면 이 채널에 알려 드릴게요 (배송 완료 또는 30일까지). 끄려면 /untrack',
      en: '🔔 Changes will be posted to this channel (until delivered, at most 30 days). Stop with /untrack',
    });
  } catch (error) {
    if (error instanceof AppError && error.status < 500) return `🔔 ${error.message}`;
    throw error;
  }
}

/** `/untrack number`: stops the watches of that parcel in this channel. */
export const untrackCommand = defineCommand({
  name: 'untrack',
  description: { ko: '배송 변경 알림을 끕니다', en: 'Stop watching a parcel' },
  options: [{ name: 'number', type: 'string', required: true, description: { ko: '운송장 번호', en: 'Tracking number' } }],
  schema: z.object({ number: text('number') }),
  usage: { ko: '/untrack <운송장 번호>', en: '/untrack <number>' },
  slow: false,
  async handle(ctx, options): Promise<Reply> {
    const removed = await ctx.watches.remove(ctx.account!.id, { trackId: options.number, channel: channelOf(ctx) });
    return removed.length > 0
      ? { title: ctx.t({ ko: '🔕 알림을 껐어요', en: '🔕 Stopped watching' }), text: options.number, tone: 'ok' }
      : {
          title: ctx.t({ ko: '알림 중인 택배가 아니에요', en: 'Not watching that parcel' }),
          text: ctx.t({
            ko: `이 채널에서 ${options.number} 운송장을 알림 중이지 않습니다.`,
            en: `${options.number} is not watched in this channel.`,
          }),
          tone: 'warn',
        };
  },
});

const CONFIDENCE = {
  high: { ko: '신뢰도 높음', en: 'high confidence' },
  medium: { ko: '신뢰도 보통', en: 'medium confidence' },
  low: { ko: '신뢰도 낮음', en: 'low confidence' },
} as const;

/** `/track digest on [HH:MM]` / `off` / `status`: one message a day listing this channel's parcels, instead of one per change. */
async function digestCommand(ctx: CommandContext, words: string): Promise<Reply> {
  const channel = channelOf(ctx);
  if (!channel) return { title: ctx.t({ ko: '채널에서만 쓸 수 있어요', en: 'Channels only' }), text: undefined, tone: 'warn' };
  const match = /^(on|켜기|off|끄기|status|상태)?(?:\s+(\d{1,2}):(\d{2}))?$/i.exec(words.trim());
  const hour = match?.[2] ? Number(match[2]) : 9;
  const minute = match?.[3] ? Number(match[3]) : 0;
  if (!match || hour > 23 || minute > 59) {
    return {
      title: ctx.t({ ko: '사용법: /track digest on [HH:MM] 또는 off', en: 'Usage: /track digest on [HH:MM] or off' }),
      text: ctx.t({ ko: '시각은 한국 시간 24시간 형식입니다 (예: 09:00).', en: 'The time is Korea time, 24-hour (e.g. 09:00).' }),
      tone: 'warn',
    };
  }
  const action = (match[1] ?? 'on').toLowerCase();
  if (action === 'status' || action === '상태') {
    return {
      title: ctx.t({ ko: '배송 요약 설정', en: 'Digest setting' }),
      text: ctx.t({
        ko: '켜려면 /track digest on 09:00, 끄려면 /track digest off',
        en: 'On: /track digest on 09:00 · Off: /track digest off',
      }),
      tone: 'info',
    };
  }
  const on = action === 'on' || action === '켜기';
  const time = `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
  const covered = await ctx.watches.setChannelDigest(ctx.account!.id, channel, on ? time : null);
  return on
    ? {
        title: ctx.t({ ko: `🗓️ 매일 ${time}에 배송 요약을 보내 드릴게요`, en: `🗓️ A daily digest at ${time} (Korea time)` }),
        text: ctx.t({
          ko: `이 채널의 알림 ${covered}건은 바뀔 때마다 알리지 않고 하루 한 번 모아서 알려 드려요. 배송 완료는 바로 알려 드립니다.`,
          en: `${covered} watched parcels here are reported once a day instead of at each change; deliveries are still told at once.`,
        }),
        tone: 'ok',
      }
    : {
        title: ctx.t({ ko: '🔔 배송 요약을 껐어요', en: '🔔 Digest off' }),
        text: ctx.t({ ko: '이제 바뀔 때마다 알려 드려요.', en: 'Changes are posted as they happen again.' }),
        tone: 'ok',
      };
}
