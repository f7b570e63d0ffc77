import { gunzipSync } from 'node:zlib';
import { entryExpression, expressionHost, isWholeHostExpression } from './expressions.js';
import { shortenerOf } from '../expansion/shorteners.js';
import { csvLineParser } from './feed-csv.js';
import { DEFAULT_MAX_FEED_BYTES, forEachFeedLine, forEachFeedLineSync } from './feed-lines.js';

export const FEED_FORMATS = ['hosts', 'domains', 'urls', 'adblock', 'csv', 'odcloud'] as const;
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
  /** Lines longer than `MAX_LINE_BYTES`, dropped unread (a hostile or broken feed). */
  tooLong: number;
  /** Entries that name a URL shortener's whole host (`https://bit.ly/`): no entry (issue 31). */
  ignored: number;
}

const SINKHOLES = /^(0\.0\.0\.0|127\.0\.0\.1|::1?|0|::)$/;
const LOCAL_NAMES = /^(localhost|localhost\.localdomain|local|broadcasthost|ip6-\w+|0\.0\.0\.0)$/;
/** Adblock options that restrict a rule to some pages or rewrite requests: not a plain block. */
const CONTEXT_OPTIONS =
  /(^|,)~?(domain|from|to|denyallow|badfilter|redirect(-rule)?|removeparam|csp|header|permissions|replace|urltransform|method)(=|,|$)/;

/** Parses a feed body in one of the `URL_LIST_FEEDS` formats (small bodies: tests, the evaluation). */
export function parseFeed(body: Buffer, format: FeedFormat, maxBytes = DEFAULT_MAX_FEED_BYTES): ParsedFeed {
  const parsed = emptyFeed();
  const sink = setSink(parsed);
  const parseLine = lineParser(format, sink);
  forEachFeedLineSync(body, { line: parseLine, tooLong: () => sink.tooLong() }, (gzip) => gunzipSync(gzip, { maxOutputLength: maxBytes }));
  return parsed;
}

/** Receives what a feed body holds, expression by expression (no Set of millions of strings). */
export interface FeedSink {
  entry(expression: string): void;
  exception(expression: string): void;
  skipped(line: string): void;
  /** A line longer than `MAX_LINE_BYTES`, dropped unread. */
  tooLong(): void;
  /** An entry naming a URL shortener's whole host: left out, counted in the lists status. */
  ignored(expression: string): void;
}

/**
 * Parses a feed body slice by slice, yielding to the event loop between slices (feed-lines.ts):
 * a refresh never stalls requests. gzip is inflated as a stream, capped at `maxBytes` inflated.
 */
export async function parseFeedStream(body: Buffer, format: FeedFormat, sink: FeedSink, maxBytes = DEFAULT_MAX_FEED_BYTES): Promise<void> {
  const parseLine = lineParser(format, sink);
  await forEachFeedLine(body, maxBytes, { line: parseLine, tooLong: () => sink.tooLong() });
}

/** The same into sets (tests and small feeds). */
export async function parseFeedAsync(body: Buffer, format: FeedFormat, maxBytes = DEFAULT_MAX_FEED_BYTES): Promise<ParsedFeed> {
  const parsed = emptyFeed();
  await parseFeedStream(body, format, setSink(parsed), maxBytes);
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
    tooLong: () => parsed.tooLong++,
    ignored: () => parsed.ignored++,
  };
}

function emptyFeed(): ParsedFeed {
  return { entries: new Set(), exceptions: new Set(), skipped: 0, skippedSamples: [], tooLong: 0, ignored: 0 };
}

/** The parser of one feed's lines, in order (a CSV feed remembers its header's URL column). */
function lineParser(format: FeedFormat, given: FeedSink): (line: string) => void {
  const sink = withoutShortenerRoots(given);
  // The open API's pages arrive as CSV with a `url` header (feed-odcloud.ts).
  if (format === 'csv' || format === 'odcloud') return csvLineParser(sink);
  return (rawLine) => {
    const line = rawLine.trim();
    if (!line || line.startsWith('#') || line.startsWith('!') || (format === 'adblock' && line.startsWith('['))) return;
    if (format === 'adblock') {
      const rule = adblockRule(line);
      if (rule === undefined) sink.skipped(line);
      else if (rule && rule.exception) sink.exception(rule.expression);
      else if (rule) sink.entry(rule.expression);
      return;
    }
    const expressions = lineExpressions(withoutTrailingComment(line), format);
    if (expressions === undefined) sink.skipped(line);
    else for (const expression of expressions) sink.entry(expression);
  };
}

/**
 * A bare shortener root (`https://bit.ly/`, `c11.kr/`, `||han.gl^`) names every link of a public
 * service, the harmless ones included: KISA reports such roots when the link itself was not
 * kept. It is no entry; a listed short link (`han.gl/AbCd`) stays one and names that link only.
 */
function withoutShortenerRoots(sink: FeedSink): FeedSink {
  return {
    ...sink,
    entry: (expression) =>
      isWholeHostExpression(expression) && shortenerOf(expressionHost(expression)) ? sink.ignored(expression) : sink.entry(expression),
  };
}

/** `host  # note` → `host`: a `#` after a blank starts a comment (one scan, no backtracking). */
export function withoutTrailingComment(line: string): string {
  for (let i = 1; i < line.length; i++) {
    if (line.charCodeAt(i) === 35 && isBlank(line.charCodeAt(i - 1))) return line.slice(0, i).trimEnd();
  }
  return line;
}

function isBlank(code: number): boolean {
  return code === 32 || code === 9 || code === 11 || code === 12 || code === 0xa0 || code === 0x3000;
}

/** Expressions of one plain line; [] for lines that carry nothing on purpose (`127.0.0.1 localhost`). */
function lineExpressions(line: string, format: 'hosts' | 'domains' | 'urls'): string[] | undefined {
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
