import { promisify } from 'node:util';
import { gunzip, gunzipSync } from 'node:zlib';
import { entryExpression } from './expressions.js';

export const FEED_FORMATS = ['hosts', 'domains', 'urls', 'adblock', 'csv'] as const;
export type FeedFormat = (typeof FEED_FORMATS)[number];

/** What a feed body holds once parsed: block expressions, exception expressions, lines skipped. */
export interface ParsedFeed {
  entries: Set<string>;
  /** `@@` exceptions of adblock lists: a URL they match is not blocked by this feed. */
  exceptions: Set<string>;
  /** Non-comment lines that were not understood (unknown syntax, mid-name wildcards…). */
  skipped: number;
  /** Up to three of them, for the feed's state and the log. */
  skippedSamples: string[];
}

const gunzipAsync = promisify(gunzip);
const SINKHOLES = /^(0\.0\.0\.0|127\.0\.0\.1|::1?|0|::)$/;
const LOCAL_NAMES = /^(localhost|localhost\.localdomain|local|broadcasthost|ip6-\w+|0\.0\.0\.0)$/;
/** Adblock options that restrict a rule to some pages or rewrite requests: not a plain block. */
const CONTEXT_OPTIONS =
  /(^|,)~?(domain|from|to|denyallow|badfilter|redirect(-rule)?|removeparam|csp|header|permissions|replace|urltransform|method)(=|,|$)/;

/** Decompresses gzip (recognised by its bytes) and decodes UTF-8 without a BOM. */
export function feedText(body: Buffer): string {
  const raw = body[0] === 0x1f && body[1] === 0x8b ? gunzipSync(body) : body;
  return raw.toString('utf8').replace(/^\uFEFF/, '');
}

/** Parses a feed body in one of the `URL_LIST_FEEDS` formats. */
export function parseFeed(body: Buffer, format: FeedFormat): ParsedFeed {
  const parsed = emptyFeed();
  parseLines(feedText(body).split(/\r?\n|\r/), format, setSink(parsed));
  return parsed;
}

/** Receives what a feed body holds, expression by expression (no Set of millions of strings). */
export interface FeedSink {
  entry(expression: string): void;
  exception(expression: string): void;
  skipped(line: string): void;
}

const SLICE_BYTES = 128 * 1024;

/**
 * Parses a feed body slice by slice (128 KB of text at a time, never the whole body
 * as one string or one array of lines), yielding to the event loop between slices: a refresh
 * never stalls requests. gzip is inflated on libuv's thread pool.
 */
export async function parseFeedStream(body: Buffer, format: FeedFormat, sink: FeedSink): Promise<void> {
  const raw = body[0] === 0x1f && body[1] === 0x8b ? await gunzipAsync(body) : body;
  let start = raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf ? 3 : 0;
  while (start < raw.length) {
    let end = Math.min(raw.length, start + SLICE_BYTES);
    if (end < raw.length) {
      const newline = raw.indexOf(0x0a, end);
      end = newline === -1 ? raw.length : newline + 1;
    }
    parseLines(raw.toString('utf8', start, end).split(/\r?\n|\r/), format, sink);
    start = end;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The same into sets (tests and small feeds). */
export async function parseFeedAsync(body: Buffer, format: FeedFormat): Promise<ParsedFeed> {
  const parsed = emptyFeed();
  await parseFeedStream(body, format, setSink(parsed));
  return parsed;
}

function setSink(parsed: ParsedFeed): FeedSink {
  return {
    entry: (expression) => parsed.entries.add(expression),
    exception: (expression) => parsed.exceptions.add(expression),
    skipped: (line) => {
      parsed.skipped++;
      if (parsed.skippedSamples.length < 3) parsed.skippedSamples.push(line.slice(0, 120));
    },
  };
}

function emptyFeed(): ParsedFeed {
  return { entries: new Set(), exceptions: new Set(), skipped: 0, skippedSamples: [] };
}

function parseLines(lines: string[], format: FeedFormat, sink: FeedSink): void {
  const skip = (line: string) => sink.skipped(line);
  for (const rawLine of lines) {
    const line = rawLine.trim();
    if (!line || line.startsWith('#') || line.startsWith('!') || (format === 'adblock' && line.startsWith('['))) continue;
    if (format === 'adblock') {
      const rule = adblockRule(line);
      if (rule === undefined) skip(line);
      else if (rule && rule.exception) sink.exception(rule.expression);
      else if (rule) sink.entry(rule.expression);
      continue;
    }
    const expressions = lineExpressions(line.replace(/\s+#.*$/, ''), format);
    if (expressions === undefined) skip(line);
    else for (const expression of expressions) sink.entry(expression);
  }
}

/** Expressions of one plain line; [] for lines that carry nothing on purpose (`127.0.0.1 localhost`). */
function lineExpressions(line: string, format: Exclude<FeedFormat, 'adblock'>): string[] | undefined {
  if (format === 'csv') return csvExpression(line);
  const tokens = line.split(/\s+/);
  if (format === 'hosts') {
    // `0.0.0.0 host [host…]`; some hosts files are bare names, one a line.
    const names = tokens.length === 1 ? tokens : SINKHOLES.test(tokens[0] ?? '') ? tokens.slice(1) : undefined;
    if (!names) return [];
    const wanted = names.filter((name) => !LOCAL_NAMES.test(name));
    const out = wanted.flatMap((name) => entryExpression(name, 'host') ?? []);
    return out.length === wanted.length ? out : undefined;
  }
  const expression = entryExpression(tokens[0] ?? '');
  return expression ? [expression] : undefined;
}

/** URLhaus-style CSV: the first field that holds a URL or a host name is the entry. */
function csvExpression(line: string): string[] | undefined {
  const fields = splitCsv(line);
  for (const field of fields) {
    if (!/^https?:\/\//i.test(field) && !/^[^\s/:]+\.[^\s/:]+/.test(field)) continue;
    if (/^\d{4}-\d\d-\d\d/.test(field) || /^\d+(\.\d+)?$/.test(field)) continue;
    const expression = entryExpression(field);
    if (expression) return [expression];
  }
  // A header line names its columns; nothing in it looks like a host.
  return fields.some((field) => /^(id|url|dateadded|domain|host)$/i.test(field)) ? [] : undefined;
}

function splitCsv(line: string): string[] {
  const fields: string[] = [];
  const pattern = /\s*(?:"((?:[^"]|"")*)"|([^,]*))\s*(,|$)/g;
  for (const match of line.matchAll(pattern)) {
    fields.push(match[1] !== undefined ? match[1].replace(/""/g, '"') : (match[2] ?? ''));
    if (match[3] === '' || match.index + match[0].length >= line.length) break;
  }
  return fields;
}

/**
 * One adblock network rule as a block or exception expression: `||host^`, `||host^$opts`,
 * `||host/path^$opts`, `|https://host/path|`, `@@…` exceptions, bare `host` lines.
 * `false`: a rule that blocks nothing here (cosmetic `##`, options that depend on the page);
 * undefined: syntax not understood.
 */
function adblockRule(line: string): { expression: string; exception: boolean } | false | undefined {
  if (/#[@?$%]?#|#\+js\(/.test(line)) return false;
  const exception = line.startsWith('@@');
  let rule = exception ? line.slice(2) : line;
  const dollar = rule.lastIndexOf('$');
  if (dollar > 0 && !rule.slice(dollar).includes('/')) {
    if (CONTEXT_OPTIONS.test(rule.slice(dollar + 1))) return false;
    rule = rule.slice(0, dollar);
  }
  let text: string;
  if (rule.startsWith('||')) text = rule.slice(2);
  else if (rule.startsWith('|')) text = rule.slice(1);
  else if (/^[a-z0-9*.-]+\.[a-z0-9-]+\^?$/i.test(rule)) text = rule;
  else return undefined;
  text = text
    .replace(/\|$/, '')
    .replace(/\^$/, '')
    .replace(/\^?\*$/, '');
  // `^` elsewhere is a separator: the end of the host (`||host^/path` is rare) or of the path.
  text = text.replace(/\^/g, '/');
  if (text.includes('*')) return undefined;
  const expression = entryExpression(text);
  return expression ? { expression, exception } : undefined;
}
