import { fnv1a } from '../url-detect/model/lexical-features.js';
import { fold } from './scam-scripts.js';
import { LINKISH, type MessageCues } from './message-cues.js';

/** Hashed feature space of the message model: 2^18 buckets (1 MB of weights). */
export const MESSAGE_FEATURE_BITS = 18;
/** Bumped whenever `messageFeatures` changes: weights of another version are refused at load. */
export const MESSAGE_FEATURE_VERSION = 4;
const MASK = (1 << MESSAGE_FEATURE_BITS) - 1;
/** Long messages are read up to here: scam scripts show themselves early, and the cost stays flat. */
const MAX_CHARS = 2_000;

/**
 * What the message model reads. `grams`: character 2- to 4-grams of the folded text (spaces
 * removed, so `확 인 하 세 요` is `확인하세요`; digits as 0, links as one sign) and its words,
 * weighed together (1/√n each, so a long message does not outvote a short one). `cues`: the
 * rules' findings (families, asks, urgency, sender marks, numbers, sums, links; not the length: the ordinary lines are short chat, and length would teach that every long notice is a scam), each
 * at full weight, so a script the rules know counts as much in a long message as in a short one.
 */
export interface MessageFeatures {
  grams: Uint32Array;
  cues: Uint32Array;
}

export function messageFeatures(text: string, cues: MessageCues): MessageFeatures {
  const grams = new Set<string>();
  const plain = text.slice(0, MAX_CHARS).normalize('NFKC').toLowerCase().replace(LINKISH, ' ⓤ ').replace(/\d/g, '0');
  const folded = fold(plain);
  for (let n = 2; n <= 4; n++) for (let i = 0; i + n <= folded.length; i++) grams.add(folded.slice(i, i + n));
  for (const word of plain.split(/\s+/)) if (word.length > 0 && word.length <= 12) grams.add(`w:${word}`);
  return { grams: hashAll(grams), cues: hashAll(cueNames(cues)) };
}

function cueNames(cues: MessageCues): Set<string> {
  const names = new Set<string>();
  for (const family of cues.families) {
    names.add(`fam:${family.type}`);
    if (family.found.length >= 2) names.add(`fam2:${family.type}`);
  }
  for (const ask of cues.asks) names.add(`ask:${ask.kind}`);
  if (cues.asks.length >= 2) names.add('asks:2+');
  const lead = cues.families[0]?.type;
  // What is asked, read with who the message claims to be: money asked by a "child" is the family script.
  if (lead) for (const ask of cues.asks) names.add(`fam-ask:${lead}:${ask.kind}`);
  if (cues.pressure.length > 0) names.add('pressure');
  for (const mark of cues.marks) names.add(`mark:${mark.mark}`);
  for (const [kind, count] of Object.entries(cues.phones)) if (count > 0) names.add(`phone:${kind}`);
  if (cues.accounts > 0) names.add('account');
  if (cues.amounts > 0) names.add('amount');
  if (cues.named) names.add('named');
  if (cues.shortLinks > 0) names.add('short-link');
  names.add(cues.links > 0 ? 'link' : 'no-link');
  return names;
}

function hashAll(names: Set<string>): Uint32Array {
  const ids = new Uint32Array(names.size);
  let at = 0;
  for (const name of names) ids[at++] = fnv1a(name) & MASK;
  return ids;
}
