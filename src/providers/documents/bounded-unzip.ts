import { crc32, inflateRawSync } from 'node:zlib';

/**
 * Limits every ZIP-based upload (DOCX) obeys while it is inflated. A DOCX of 2 MB holds a few
 * MB of XML (ratio 5–20); a 1.4 MB file whose `word/document.xml` inflates to 400 MB is a bomb.
 */
export const ZIP_LIMITS = {
  /** Entries listed in the central directory. */
  maxEntries: 2_000,
  /** Inflated bytes of one entry. */
  maxEntryBytes: 32 * 1024 * 1024,
  /** Inflated bytes of all entries read from one file. */
  maxTotalBytes: 64 * 1024 * 1024,
  /** Inflated bytes per compressed byte, past the first `ratioFloorBytes` of an entry. */
  maxRatio: 100,
  ratioFloorBytes: 1024 * 1024,
} as const;

export type ZipLimits = typeof ZIP_LIMITS;
export type ZipRefusal = 'TooManyEntries' | 'EntryTooLarge' | 'TotalTooLarge' | 'RatioTooHigh' | 'DtdInPart' | 'Damaged' | 'Encrypted';

/** A refused archive; `reason` names the limit (read-document.ts turns it into the Korean answer). */
export class ZipLimitError extends Error {
  override readonly name = 'ZipLimitError';
  constructor(readonly reason: ZipRefusal) {
    super(`zip refused: ${reason}`);
  }
}

interface Entry {
  method: number;
  flags: number;
  crc: number;
  compressedSize: number;
  localOffset: number;
}

/** The archive's entries by name, from its central directory (nothing is inflated here). */
function centralDirectory(zip: Buffer, limits: ZipLimits): Map<string, Entry> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]), Math.max(0, zip.length - 22));
  if (end < 0 || end < zip.length - 22 - 0xffff) throw new ZipLimitError('Damaged');
  const count = zip.readUInt16LE(end + 10);
  const offset = zip.readUInt32LE(end + 16);
  // ZIP64 (over 65,535 entries or 4 GB) is never needed by an upload of at most 10 MB.
  if (count === 0xffff || offset === 0xffffffff) throw new ZipLimitError('TooManyEntries');
  if (count > limits.maxEntries) throw new ZipLimitError('TooManyEntries');
  const entries = new Map<string, Entry>();
  let at = offset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== 0x02014b50) throw new ZipLimitError('Damaged');
    const nameLength = zip.readUInt16LE(at + 28);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    entries.set(name, {
      flags: zip.readUInt16LE(at + 8),
      method: zip.readUInt16LE(at + 10),
      crc: zip.readUInt32LE(at + 16),
      compressedSize: zip.readUInt32LE(at + 20),
      localOffset: zip.readUInt32LE(at + 42),
    });
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return entries;
}

/** The entry's compressed bytes, found through its local header. */
function compressedBytes(zip: Buffer, entry: Entry): Buffer {
  const at = entry.localOffset;
  if (at + 30 > zip.length || zip.readUInt32LE(at) !== 0x04034b50) throw new ZipLimitError('Damaged');
  const start = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28);
  if (start + entry.compressedSize > zip.length) throw new ZipLimitError('Damaged');
  return zip.subarray(start, start + entry.compressedSize);
}

export interface BoundedZip {
  /** Names of the archive's entries. */
  names(): string[];
  exists(name: string): boolean;
  /**
   * The entry's inflated bytes. The sizes the archive declares are ignored (a bomb lies): zlib
   * counts the bytes it writes and stops at the smallest of the entry limit, what is left of
   * the total and the ratio limit, so no more than that is ever held.
   */
  read(name: string): Buffer;
}

/** Opens an archive for reading entry by entry, each within the limits (the running total counts every read). */
export function openBoundedZip(zip: Buffer, limits: ZipLimits = ZIP_LIMITS): BoundedZip {
  const entries = centralDirectory(zip, limits);
  let total = 0;
  return {
    names: () => [...entries.keys()],
    exists: (name) => entries.has(name),
    read(name) {
      const entry = entries.get(name);
      if (!entry) throw new ZipLimitError('Damaged');
      if (entry.flags & 1) throw new ZipLimitError('Encrypted');
      const data = compressedBytes(zip, entry);
      const byRatio = Math.max(limits.ratioFloorBytes, data.length * limits.maxRatio);
      const left = limits.maxTotalBytes - total;
      const cap = Math.min(limits.maxEntryBytes, left, byRatio);
      const over = (): ZipRefusal =>
        cap === byRatio && byRatio < Math.min(limits.maxEntryBytes, left)
          ? 'RatioTooHigh'
          : cap === left && left < limits.maxEntryBytes
            ? 'TotalTooLarge'
            : 'EntryTooLarge';
      let out: Buffer;
      if (entry.method === 0) {
        if (data.length > cap) throw new ZipLimitError(over());
        out = data;
      } else if (entry.method === 8) {
        out = inflateBounded(data, cap, over);
      } else throw new ZipLimitError('Damaged');
      if (crc32(out) >>> 0 !== entry.crc >>> 0) throw new ZipLimitError('Damaged');
      total += out.length;
      return out;
    },
  };
}

/** Raw DEFLATE with zlib's own running count of output bytes (`maxOutputLength`): it stops mid-stream at `cap`. */
function inflateBounded(data: Buffer, cap: number, over: () => ZipRefusal): Buffer {
  try {
    return inflateRawSync(data, { maxOutputLength: Math.max(1, cap) });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new ZipLimitError(over());
    throw new ZipLimitError('Damaged');
  }
}

/**
 * An XML part with a document type declaration: OOXML parts never have one (Word refuses
 * them), and its entities are how "billion laughs" expands a few bytes into gigabytes.
 */
export function hasDtd(xml: string): boolean {
  const root = xml.search(/<[A-Za-z_]/);
  return /<!(DOCTYPE|ENTITY)/i.test(root < 0 ? xml : xml.slice(0, root));
}
