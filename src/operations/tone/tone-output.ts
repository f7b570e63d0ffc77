/**
 * Checks a model's tone conversion before it reaches the caller. Models (small local ones
 * especially) sometimes answer with nothing, wrap the text in quotes, or explain what they
 * did instead of just restyling; those answers are refused and asked for again.
 */

const QUOTE_PAIRS: Array<[string, string]> = [
  ['"', '"'],
  ["'", "'"],
  ['“', '”'],
  ['‘', '’'],
  ['「', '」'],
  ['『', '』'],
  ['«', '»'],
  ['`', '`'],
];

/** A first line that announces the answer ("변환된 문장:", "Here is the text:") instead of being it. */
const PREAMBLE =
  /^[^\n]{0,80}(?:변환|바꾼|바뀐|결과|출력|다음은|아래는|말투|버전|here|convert|transform|rewrit|output|result)[^\n]{0,80}[:：]\s*(?:\n|$)/i;

/** Labelled lines the model may add around the text ("원문: …", "변환: …", "설명: …"). */
const LABEL = /^\s*(?:원문|변환|변환문|설명|참고|original|converted|explanation|note)\s*[:：]/im;

const URL_PATTERN = /\bhttps?:\/\/[^\s<>"'）)\]]+/gi;

export type RejectReason = 'empty' | 'quoted' | 'explanation' | 'url-changed';

/** Why the output is not a clean conversion of `input`, or undefined when it is. */
export function rejectReason(output: string, input: string): RejectReason | undefined {
  const text = output.trim();
  if (text.length === 0) return 'empty';
  const original = input.trim();
  for (const [open, close] of QUOTE_PAIRS) {
    const wrapped = (value: string) => value.length >= 2 && value.startsWith(open) && value.endsWith(close);
    if (wrapped(text) && !wrapped(original)) return 'quoted';
  }
  if ((PREAMBLE.test(text) && !PREAMBLE.test(original)) || (LABEL.test(text) && !LABEL.test(original))) return 'explanation';
  for (const url of input.match(URL_PATTERN) ?? []) {
    if (!text.includes(url)) return 'url-changed';
  }
  return undefined;
}
