import { pino, type Logger, type DestinationStream } from 'pino';
import { prettyFactory } from 'pino-pretty';

export type { Logger } from 'pino';

const CENSOR = '[REDACTED]';

/** Header paths (of the request and response serializers' output) that never reach a log line. */
const REDACTED_HEADERS = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-slack-signature"]',
  'req.headers["x-signature-ed25519"]',
  'res.headers["set-cookie"]',
];

/** Keys whose values never reach a log line, whatever logged them: at the top level or one level down. */
const SECRET_KEYS = new Set(['password', 'token', 'api_key', 'apiKey', 'webhook_secret', 'base64_image', 'image']);

/**
 * A log object (or a child logger's bindings) with the value of every secret key censored, at
 * the top level and in the plain objects one level down; copied only where something is
 * censored, so the caller's objects never change. Done here instead of pino's wildcard paths
 * (`*.password`), which cost 7.6 µs on every line, four times the line itself.
 */
export function censorSecrets(object: Record<string, unknown>): Record<string, unknown> {
  let out = object;
  for (const key in object) {
    const value = object[key];
    const censored = SECRET_KEYS.has(key) ? CENSOR : isPlainObject(value) ? censorKeys(value) : value;
    if (censored === value) continue;
    if (out === object) out = { ...object };
    out[key] = censored;
  }
  return out;
}

function censorKeys(object: Record<string, unknown>): Record<string, unknown> {
  let out = object;
  for (const key in object) {
    if (!SECRET_KEYS.has(key)) continue;
    if (out === object) out = { ...object };
    out[key] = CENSOR;
  }
  return out;
}

/** Object literals and parsed JSON, not class instances (an Error, a request): serializers deal with those. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/**
 * Secrets and personal data that might slip into free text (an error message quoting a
 * request, a URL with a key in it). The last line of defence: structured fields are
 * redacted by path above, and code never logs bodies.
 */
const SCRUBBERS: Array<[RegExp, string]> = [
  [/aik_[0-9A-Za-z]{8,}/g, 'aik_[REDACTED]'],
  [/\b(xox[abposr]-)[0-9A-Za-z-]+/g, '$1[REDACTED]'],
  [/\b(Bearer\s+)[0-9A-Za-z._~+/=-]{8,}/gi, '$1[REDACTED]'],
  // drizzle's failed-query message ends with the bound values: keep the SQL, drop the values.
  [/(Failed query: (?:[^"\\]|\\.)*?)\\nparams: (?:[^"\\]|\\.)*/g, '$1\\nparams: [REDACTED]'],
  // Resident registration numbers: YYMMDD-GNNNNNN (G = 1..8), with or without the hyphen.
  [/\b(\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01]))\s?-?\s?([1-8])\d{6}\b/g, '$1-$2******'],
];

/**
 * What any scrubber could match holds one of these: most lines hold none and are scanned once.
 * The digits are a resident number's whole shape: a request id (a UUID) often holds six in a row.
 */
const MAY_HOLD_SECRET = /aik_|xox[abposr]-|bearer|Failed query|\d{6}\s?-?\s?[1-8]\d{6}/i;

export function scrubSecrets(text: string): string {
  if (!MAY_HOLD_SECRET.test(text)) return text;
  let out = text;
  for (const [pattern, replacement] of SCRUBBERS) out = out.replace(pattern, replacement);
  return out;
}

/** Wraps a destination so that every serialized line is scrubbed before it is written. */
function scrubbingStream(target: DestinationStream & { flushSync?: () => void }): DestinationStream {
  return {
    write: (line: string) => target.write(scrubSecrets(line)),
    // logger.flush looks for these on the stream.
    flush: () => target.flushSync?.(),
    flushSync: () => target.flushSync?.(),
  } as DestinationStream;
}

/** Properties of database errors that hold the values a query was run with. */
const QUERY_VALUE_KEYS = ['params', 'parameters', 'args'] as const;

/**
 * pino's error serializer without query values: drizzle's `DrizzleQueryError` carries `params`
 * (and repeats them in its message), postgres.js errors may carry `parameters`. Those values
 * are knowledge content, e-mails, password hashes, webhook secrets: never logged.
 */
export function serializeError(error: unknown): unknown {
  const serialized = pino.stdSerializers.err(error as Error) as unknown;
  return stripQueryValues(serialized, 0);
}

function stripQueryValues(value: unknown, depth: number): unknown {
  if (depth > 5 || value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const key of QUERY_VALUE_KEYS) if (key in out) out[key] = '[REDACTED]';
  for (const key of ['message', 'stack'] as const) {
    if (typeof out[key] === 'string') out[key] = (out[key] as string).replace(/\nparams: [\s\S]*?(?=\n    at |$)/, '\nparams: [REDACTED]');
  }
  if (out.cause !== undefined) out.cause = stripQueryValues(out.cause, depth + 1);
  return out;
}

/** One buffered stream per target (stdout in production), flushed when the process exits. */
const destinations = new Map<number | string, DestinationStream & { flushSync(): void }>();

const BLOCK_CHARS = 4096;
const FLUSH_MS = 250;

/**
 * Where the service's lines go: written in blocks of at least 4 KiB, synchronously, and at least
 * every 250 ms; whatever is still buffered is written when the process exits, a crash included
 * (a `kill -9` loses at most the last 250 ms). One write per line, handed to the thread pool,
 * was a tenth of an API call's CPU under load (bench/profile-hot-path.ts).
 */
export function logDestination(dest: number | string = 1): DestinationStream {
  let stream = destinations.get(dest);
  if (!stream) {
    stream = inBlocks(pino.destination({ dest, sync: true, minLength: 0 }));
    if (destinations.size === 0) process.on('exit', () => destinations.forEach((each) => each.flushSync()));
    destinations.set(dest, stream);
  }
  return stream;
}

/**
 * Gathers lines into blocks before they reach sonic-boom, which writes each block at once:
 * sonic-boom's own buffering measures the UTF-8 length of everything it holds on every line
 * (2 KiB scanned and copied per line at 4 KiB blocks, the largest allocation of an API call).
 * A block is full at 4096 UTF-16 units, at least as many bytes.
 */
function inBlocks(target: DestinationStream & { flushSync(): void }): DestinationStream & { flushSync(): void } {
  let lines: string[] = [];
  let size = 0;
  const drain = () => {
    if (size === 0) return;
    const block = lines.join('');
    [lines, size] = [[], 0];
    target.write(block);
  };
  setInterval(drain, FLUSH_MS).unref();
  return {
    write(line: string) {
      lines.push(line);
      size += line.length;
      if (size >= BLOCK_CHARS) drain();
    },
    flushSync() {
      drain();
      target.flushSync();
    },
  };
}

let lastMs = Number.NaN;
let lastTime = '';

/** pino's `isoTime`, formatted once per millisecond: busy moments log several lines in each. */
function isoTimeOncePerMillisecond(): string {
  const now = Date.now();
  if (now !== lastMs) [lastMs, lastTime] = [now, `,"time":"${new Date(now).toISOString()}"`];
  return lastTime;
}

/** What the line of an answered request names (as api/middleware/request-log.ts's serializers do): never headers or bodies. */
export interface RequestLine {
  id: string;
  method: string;
  path: string;
}

/**
 * Writes the `request completed` line of an answered request, the same bytes as
 * `logger.info({ req, res: { statusCode }, responseTime }, 'request completed')`, built as one
 * string instead of through pino's generic path (serializers, the log formatter, redaction,
 * stringify) on every answered call. Only the fields named here can be in it, none of them a secret key
 * (`censorSecrets` has nothing to do), and the line still goes through the logger's stream,
 * so the free-text scrubbers run on it as on every other line.
 */
export function requestLineWriter(logger: Logger): (req: RequestLine, statusCode: number, responseTime: number) => void {
  const internals = logger as unknown as Record<symbol, unknown>;
  const stream = internals[pino.symbols.streamSym] as DestinationStream;
  const time = internals[pino.symbols.timeSym] as () => string;
  const head = `{"level":${logger.levels.values.info}`;
  const bindings = internals[pino.symbols.chindingsSym] as string;
  return (req, statusCode, responseTime) => {
    if (!logger.isLevelEnabled('info')) return;
    const fields = `"req":{"id":${JSON.stringify(req.id)},"method":${JSON.stringify(req.method)},"path":${JSON.stringify(req.path)}}`;
    stream.write(
      `${head}${time()}${bindings},${fields},"res":{"statusCode":${statusCode}},"responseTime":${responseTime},"msg":"request completed"}\n`,
    );
  };
}

/**
 * Readable lines for a person at a terminal (`npm run dev`): pino-pretty's formatter over the
 * same scrubbed JSON line, written where the JSON would have gone. Never in production, never
 * when the output is a file or a pipe (a log collector reads JSON).
 */
export function prettyDestination(target: DestinationStream & { flushSync?: () => void }): DestinationStream {
  const prettify = prettyFactory({ colorize: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname,service' });
  return {
    write: (line: string) => target.write(prettify(line)),
    flush: () => target.flushSync?.(),
    flushSync: () => target.flushSync?.(),
  } as DestinationStream;
}

/** Whether the service's log should be pretty: a terminal, and not production. */
export function wantsPrettyLog(isTty: boolean | undefined, nodeEnv: string | undefined): boolean {
  return Boolean(isTty) && nodeEnv !== 'production';
}

export function createLogger(level: string, destination?: DestinationStream, options: { pretty?: boolean } = {}): Logger {
  const plain = destination ?? logDestination();
  const target = options.pretty ? prettyDestination(plain as DestinationStream & { flushSync?: () => void }) : plain;
  const logger = pino(
    {
      level,
      redact: { paths: REDACTED_HEADERS, censor: CENSOR },
      formatters: { log: censorSecrets },
      serializers: { err: serializeError, error: serializeError },
      base: { service: 'ai-utility-hub' },
      timestamp: isoTimeOncePerMillisecond,
    },
    scrubbingStream(target),
  );
  // pino gives a child's bindings no formatter: they are censored on the way in. Children are
  // made from their parent's prototype, so theirs go the same way.
  const makeChild = logger.child;
  logger.child = function (this: Logger, bindings, options) {
    return makeChild.call(this, censorSecrets(bindings), options);
  } as Logger['child'];
  return logger;
}
