import { isIP } from 'node:net';

/** A harmful-URL verdict, as SPEC §3 shapes it. */
export interface UrlVerdict {
  isMalicious: boolean;
  category: 'clean' | 'spam' | 'gambling' | 'adult' | 'phishing' | 'malware';
  reason: string;
}

/** What the shortener's `check_harmful` asks about a URL; the detection engine (engine.ts) implements it. */
export interface UrlSafetyChecker {
  check(url: string): Promise<UrlVerdict>;
  /** The lists alone, synchronously: a listed URL is refused even when nobody asked for a check. */
  listCheck?(url: string): UrlVerdict | undefined;
}

/** Loopback, private, link-local, CGNAT, unspecified and unique-local addresses. */
export function isPrivateAddress(ip: string): boolean {
  if (isIP(ip) === 4) {
    const [a = 0, b = 0] = ip.split('.').map(Number);
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 100 && b >= 64 && b <= 127)
    );
  }
  const lower = ip.toLowerCase();
  const mapped = lower.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/);
  if (mapped?.[1]) return isPrivateAddress(mapped[1]);
  const mappedHex = lower.match(/^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/);
  if (mappedHex?.[1] && mappedHex[2]) {
    const high = parseInt(mappedHex[1], 16);
    const low = parseInt(mappedHex[2], 16);
    return isPrivateAddress(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`);
  }
  return lower === '::' || lower === '::1' || /^f[cd]/.test(lower) || /^fe[89ab]/.test(lower);
}
