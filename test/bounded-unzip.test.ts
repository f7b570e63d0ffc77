import { describe, expect, it } from 'vitest';
import { hasDtd, openBoundedZip, ZIP_LIMITS, ZipLimitError } from '../src/providers/documents/bounded-unzip.js';
import { deflatedEntry, docxBomb, repeatedEntry, storedEntry, zipArchive } from './helpers/hostile-files.js';

const refusal = (read: () => unknown) => {
  try {
    read();
  } catch (error) {
    if (error instanceof ZipLimitError) return error.reason;
    throw error;
  }
  return 'read';
};

describe('bounded unzip (issue 46)', () => {
  it('reads ordinary parts, deflated and stored, and lists the names', () => {
    const zip = openBoundedZip(
      zipArchive([deflatedEntry('word/document.xml', '<w:document>본문</w:document>'), storedEntry('a.txt', 'plain')]),
    );
    expect(zip.names()).toEqual(['word/document.xml', 'a.txt']);
    expect(zip.read('word/document.xml').toString()).toBe('<w:document>본문</w:document>');
    expect(zip.read('a.txt').toString()).toBe('plain');
    expect(zip.exists('missing.xml')).toBe(false);
  });

  it("stops the issue's 1.4 MB DOCX at the entry limit while inflating: never more than the limit held", async () => {
    const bomb = await docxBomb(400_000_000);
    expect(bomb.length).toBeLessThan(2_000_000);
    const zip = openBoundedZip(bomb);
    const before = process.memoryUsage().rss;
    expect(refusal(() => zip.read('word/document.xml'))).toBe('EntryTooLarge');
    // The 400 MB were never inflated: at most the 32 MB limit (and zlib's last chunk) was held.
    expect(process.memoryUsage().rss - before).toBeLessThan(ZIP_LIMITS.maxEntryBytes + 64 * 1024 * 1024);
  });

  it('refuses an entry over the ratio limit even when it is under the size limits', async () => {
    const entry = await repeatedEntry('word/document.xml', '<a>', 'x'.repeat(100_000), 50, '</a>');
    expect(entry.size / entry.data.length).toBeGreaterThan(ZIP_LIMITS.maxRatio);
    expect(refusal(() => openBoundedZip(zipArchive([entry])).read('word/document.xml'))).toBe('RatioTooHigh');
  });

  it('counts every read against the total', () => {
    const limits = { ...ZIP_LIMITS, maxEntryBytes: 1000, maxTotalBytes: 1500, ratioFloorBytes: 10_000 };
    const zip = openBoundedZip(zipArchive([storedEntry('a', 'a'.repeat(900)), storedEntry('b', 'b'.repeat(900))]), limits);
    expect(zip.read('a').length).toBe(900);
    expect(refusal(() => zip.read('b'))).toBe('TotalTooLarge');
  });

  it('ignores the sizes the archive declares and checks the CRC', () => {
    const lying = { ...deflatedEntry('a.xml', 'x'.repeat(10_000)), size: 10 };
    expect(openBoundedZip(zipArchive([lying])).read('a.xml').length).toBe(10_000);
    const corrupt = { ...storedEntry('a.xml', 'abc'), crc: 1 };
    expect(refusal(() => openBoundedZip(zipArchive([corrupt])).read('a.xml'))).toBe('Damaged');
  });

  it('refuses too many entries before reading any, and what is not a ZIP', () => {
    const many = Array.from({ length: ZIP_LIMITS.maxEntries + 1 }, (_, i) => storedEntry(`${i}.xml`, ''));
    expect(refusal(() => openBoundedZip(zipArchive(many)))).toBe('TooManyEntries');
    expect(refusal(() => openBoundedZip(Buffer.from('PK\u0003\u0004 not really a zip')))).toBe('Damaged');
  });

  it('finds a DTD before the root element only', () => {
    expect(hasDtd('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>')).toBe(true);
    expect(hasDtd('<?xml version="1.0"?><w:document><w:t>&lt;!DOCTYPE 라는 글자</w:t></w:document>')).toBe(false);
  });
});
