import { createHash, hash, randomBytes, randomInt, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * The service's secrets: API keys, login tokens and password hashes. Keys and tokens are
 * stored only as SHA-256 (they carry ≥160 random bits, so a fast hash is enough); passwords,
 * which people choose, get scrypt, which is memory-hard.
 */

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `length` characters drawn uniformly from [0-9A-Za-z] with a CSPRNG. */
export function randomBase62(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += BASE62[randomInt(62)];
  return out;
}

export function sha256(text: string): string {
  // The one-shot form: a third of createHash()'s cost, on every call's key lookup.
  return hash('sha256', text, 'hex');
}

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

// --- API keys: aik_<28 base62 chars = 166 bits><6 base62 chars of checksum> -----------

const KEY_PREFIX = 'aik_';
const KEY_BODY_LENGTH = 28;
const KEY_CHECKSUM_LENGTH = 6;
const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{${KEY_BODY_LENGTH + KEY_CHECKSUM_LENGTH}}$`);

function keyChecksum(body: string): string {
  // Six base62 digits of the key body's SHA-256: catches typos and junk before any lookup.
  let value = createHash('sha256').update(body).digest().readUIntBE(0, 6);
  let out = '';
  for (let i = 0; i < KEY_CHECKSUM_LENGTH; i++) {
    out = BASE62[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

export function generateApiKey(): { key: string; hash: string; prefix: string } {
  const body = randomBase62(KEY_BODY_LENGTH);
  const key = `${KEY_PREFIX}${body}${keyChecksum(body)}`;
  return { key, hash: sha256(key), prefix: key.slice(0, KEY_PREFIX.length + 6) };
}

/** True when the text has the shape and checksum of a key this service issued. */
export function isWellFormedApiKey(key: string): boolean {
  if (!KEY_PATTERN.test(key)) return false;
  const body = key.slice(KEY_PREFIX.length, KEY_PREFIX.length + KEY_BODY_LENGTH);
  return constantTimeEqual(keyChecksum(body), key.slice(-KEY_CHECKSUM_LENGTH));
}

export function generateLoginToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: sha256(token) };
}

// --- Passwords: scrypt N=2^15, r=8, p=3 (32 MiB; OWASP's equivalent-strength choice) ---

export interface ScryptCost {
  N: number;
  r: number;
  p: number;
  keyLength: number;
}

const SCRYPT: ScryptCost = { N: 2 ** 15, r: 8, p: 3, keyLength: 32 };

function scryptAsync(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, keyLength, { ...options, maxmem: 256 * 1024 * 1024 }, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** The cost is written into the hash, so `verifyPassword` reads it back (tests hash at a lower cost). */
export async function hashPassword(password: string, cost: ScryptCost = SCRYPT): Promise<string> {
  const salt = randomBytes(16);
  const { N, r, p, keyLength } = cost;
  const hash = await scryptAsync(password.normalize('NFC'), salt, keyLength, { N, r, p });
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scryptAsync(password.normalize('NFC'), Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return timingSafeEqual(actual, expected);
}

/** A hash to verify against when the account does not exist, so timing does not tell. */
export const DUMMY_PASSWORD_HASH = `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${randomBytes(16).toString('base64')}$${randomBytes(32).toString('base64')}`;
