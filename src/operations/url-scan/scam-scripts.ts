import { z } from 'zod';
import raw from './scam-scripts.json' with { type: 'json' };
import { SCAM_TYPES } from './scam-types.js';

const cue = z.string().trim().min(2, '단서는 두 글자 이상이어야 합니다');
const cues = z.array(cue).min(1);

/**
 * The scam scripts (README.md beside this file says how to change them): the families of CONTRACT
 * §5 with their Korean names, cue phrases and advice; what a message asks for; the sender marks.
 * Cues are matched on the message's folded text (spaces removed, lower case, NFKC), so `폰 고장`
 * and `폰고장` are one cue.
 */
export const scamScriptsSchema = z.object({
  families: z
    .array(
      z.object({
        type: z.enum(SCAM_TYPES.filter((type) => type !== 'other') as [string, ...string[]]),
        label: z.string().min(2),
        cues,
        advice: z.string().min(10),
      }),
    )
    .min(1),
  other: z.object({ label: z.string().min(2), advice: z.string().min(10) }),
  asks: z
    .array(
      z.object({
        kind: z.enum(['money', 'reply_elsewhere', 'app_install', 'call', 'personal_data', 'login']),
        label: z.string().min(2),
        cues,
      }),
    )
    .min(1),
  senderMarks: z.array(z.object({ mark: z.enum(['foreign', 'web']), label: z.string().min(2), cues })),
  /** Urgency (급히, 지금 바로): scams hurry so nobody checks. */
  pressure: z.object({ label: z.string().min(2), cues }),
});

export type ScamScripts = z.output<typeof scamScriptsSchema>;
export type AskKind = ScamScripts['asks'][number]['kind'];

/** Folded text: what cues are matched against (spacing tricks such as `내 용 확 인` undone). */
export function fold(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, '');
}

/**
 * Parses and folds a table: a wrong entry stops the start with the entry's path named
 * (`families.2.cues.0: 단서는 두 글자 이상이어야 합니다`); a family listed twice too.
 */
export function loadScamScripts(input: unknown): ScamScripts {
  const parsed = scamScriptsSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`scam-scripts.json: ${issue.path.join('.')}: ${issue.message}`);
  }
  const seen = new Set<string>();
  for (const [index, family] of parsed.data.families.entries()) {
    if (seen.has(family.type)) throw new Error(`scam-scripts.json: families.${index}.type: '${family.type}'가 두 번 있습니다`);
    seen.add(family.type);
  }
  const foldAll = (list: string[]) => [...new Set(list.map(fold))];
  return {
    families: parsed.data.families.map((family) => ({ ...family, cues: foldAll(family.cues) })),
    other: parsed.data.other,
    asks: parsed.data.asks.map((ask) => ({ ...ask, cues: foldAll(ask.cues) })),
    senderMarks: parsed.data.senderMarks.map((mark) => ({ ...mark, cues: foldAll(mark.cues) })),
    pressure: { ...parsed.data.pressure, cues: foldAll(parsed.data.pressure.cues) },
  };
}

/** The shipped tables, validated once at load: a broken edit fails at start, not on a message. */
export const SCAM_SCRIPTS: ScamScripts = loadScamScripts(raw);
