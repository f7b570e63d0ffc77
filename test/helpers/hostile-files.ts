import { constants, crc32, createDeflateRaw, deflateRawSync, deflateSync } from 'node:zlib';
import { assemblePdf } from './id-pdf.js';

/**
 * Hostile files made in the test, in well under a second each: decompression bombs in ZIP,
 * XML, PDF, HTML, GIF and PNG, written byte by byte where no writer would make them.
 */

export interface ZipEntry {
  name: string;
  /** The entry's bytes as stored: deflated (method 8) or as they are (method 0). */
  data: Buffer;
  crc: number;
  /** Its inflated size, as the archive declares it. */
  size: number;
  method: 0 | 8;
}

export const storedEntry = (name: string, content: Buffer | string): ZipEntry => {
  const data = Buffer.from(content);
  return { name, data, crc: crc32(data), size: data.length, method: 0 };
};

export const deflatedEntry = (name: string, content: Buffer | string): ZipEntry => {
  const raw = Buffer.from(content);
  return { name, data: deflateRawSync(raw), crc: crc32(raw), size: raw.length, method: 8 };
};

/** A ZIP archive (local headers, central directory, end record), as any zip tool writes it. */
export function zipArchive(entries: ZipEntry[]): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x800, 6);
    local.writeUInt16LE(entry.method, 8);
    local.writeUInt32LE(entry.crc >>> 0, 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.size >>> 0, 22);
    local.writeUInt16LE(name.length, 26);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(0x800, 8);
    header.writeUInt16LE(entry.method, 10);
    header.writeUInt32LE(entry.crc >>> 0, 16);
    header.writeUInt32LE(entry.data.length, 20);
    header.writeUInt32LE(entry.size >>> 0, 24);
    header.writeUInt16LE(name.length, 28);
    header.writeUInt32LE(offset, 42);
    parts.push(local, name, entry.data);
    central.push(header, name);
    offset += 30 + name.length + entry.data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directory, end]);
}

/**
 * A deflated entry holding `prefix`, `times` copies of `chunk` and `suffix`, made without
 * deflating all of it: after the first copy every copy is preceded by the same 32 KiB window,
 * so its deflated bytes (ended by a sync flush) are the same and are simply repeated.
 */
export async function repeatedEntry(name: string, prefix: string, chunk: string, times: number, suffix: string): Promise<ZipEntry> {
  const [head, body, tail] = [prefix, chunk, suffix].map((text) => Buffer.from(text)) as [Buffer, Buffer, Buffer];
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (part: Buffer) => out.push(part));
  const flushed = () =>
    new Promise<Buffer>((resolve) => deflate.flush(constants.Z_SYNC_FLUSH, () => resolve(Buffer.concat(out.splice(0)))));
  deflate.write(Buffer.concat([head, body]));
  const first = await flushed();
  deflate.write(body);
  const copy = await flushed();
  deflate.end(tail);
  await new Promise((resolve) => deflate.once('end', resolve));
  const last = Buffer.concat(out.splice(0));
  let crc = crc32(head);
  for (let i = 0; i < times; i++) crc = crc32(body, crc);
  crc = crc32(tail, crc);
  const data = Buffer.concat([first, ...Array<Buffer>(times - 1).fill(copy), last]);
  return { name, data, crc, size: head.length + body.length * times + tail.length, method: 8 };
}

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
export const paragraph = (text: string) => `<w:p><w:r><w:t>${text}</w:t></w:r></w:p>`;

/** A DOCX Word would open: content types, the package relationship and `word/document.xml` (given whole), plus `extra` parts. */
export function docxPackage(document: ZipEntry | string, extra: ZipEntry[] = []): Buffer {
  return zipArchive([
    storedEntry(
      '[Content_Types].xml',
      `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
    ),
    storedEntry(
      '_rels/.rels',
      `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
    ),
    typeof document === 'string' ? deflatedEntry('word/document.xml', document) : document,
    ...extra,
  ]);
}

export const documentXml = (body: string) => `${XML}<w:document xmlns:w="${W}"><w:body>${body}</w:body></w:document>`;

/** The issue's file: a DOCX of about 1.4 MB whose `word/document.xml` inflates to `bytes` (400 MB). */
export async function docxBomb(bytes = 400_000_000): Promise<Buffer> {
  const chunk = paragraph('가나다라마바사 아자차카타파하 hello world').repeat(20_000);
  const times = Math.max(1, Math.floor(bytes / Buffer.byteLength(chunk)));
  return docxPackage(
    await repeatedEntry('word/document.xml', `${XML}<w:document xmlns:w="${W}"><w:body>`, chunk, times, '</w:body></w:document>'),
  );
}

/**
 * A DOCX with real text and, as an embedded object, a ZIP of ZIPs: `copies` archives each holding
 * an entry that inflates to `bytes` (42.zip's idea: 5 × 100 MB from about 1.5 MB).
 */
export async function nestedZipDocx(text: string, copies = 5, bytes = 100_000_000): Promise<Buffer> {
  const inner = zipArchive([await repeatedEntry('bomb.xml', '<a>', 'x'.repeat(1_000_000), bytes / 1_000_000, '</a>')]);
  const middle = zipArchive(Array.from({ length: copies }, (_, i) => storedEntry(`part-${i}.zip`, inner)));
  return docxPackage(documentXml(paragraph(text)), [storedEntry('word/embeddings/oleObject1.zip', middle)]);
}

/** "Billion laughs": ten entities of ten references each in `word/document.xml`, 10⁹ "lol"s once expanded. */
export function billionLaughsDocx(): Buffer {
  const entities = ['<!ENTITY lol0 "lol">'];
  for (let i = 1; i <= 9; i++) entities.push(`<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`);
  return docxPackage(
    `${XML}<!DOCTYPE w:document [${entities.join('')}]><w:document xmlns:w="${W}"><w:body>${paragraph('&lol9;')}</w:body></w:document>`,
  );
}

/** A PDF of `pages` empty pages (a valid page tree and cross-reference table). */
export function pdfOfPages(pages: number): Buffer {
  const kids = Array.from({ length: pages }, (_, i) => `${3 + i} 0 R`).join(' ');
  return assemblePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`,
    ...Array.from({ length: pages }, () => '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>'),
  ]);
}

/** An HTML file of `depth` nested elements around one sentence (`<i>`: a million fit in 7 MB). */
export const nestedHtml = (depth: number) =>
  Buffer.from(`<!doctype html><html><body>${'<i>'.repeat(depth)}깊이 중첩된 문서${'</i>'.repeat(depth)}</body></html>`);

/** An animated GIF of `frames` frames on a `side` × `side` screen, each frame one pixel (about 25 bytes). */
export function animatedGif(frames: number, side = 100): Buffer {
  const screen = Buffer.alloc(13);
  screen.write('GIF89a', 0, 'latin1');
  screen.writeUInt16LE(side, 6);
  screen.writeUInt16LE(side, 8);
  screen[10] = 0x80; // a global colour table of two colours
  const palette = Buffer.from([0xff, 0xff, 0xff, 0, 0, 0]);
  const loop = Buffer.from([0x21, 0xff, 0x0b, ...Buffer.from('NETSCAPE2.0'), 0x03, 0x01, 0x00, 0x00, 0x00]);
  // Graphic control (10 ms), a 1 × 1 image at (0, 0), LZW of one pixel: clear, 0, end at 3 bits.
  const frame = Buffer.from([
    0x21, 0xf9, 0x04, 0x00, 0x01, 0x00, 0x00, 0x00, 0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0x02, 0x02, 0x44, 0x01, 0x00,
  ]);
  return Buffer.concat([screen, palette, loop, ...Array<Buffer>(frames).fill(frame), Buffer.from([0x3b])]);
}

/** A PNG that declares `side` × `side` one-bit pixels, all zeros: a few tens of kilobytes for 400 megapixels at 20,000². */
export function pngPixelBomb(side: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
    return Buffer.concat([head, data, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 1; // bit depth; colour type 0 (grey)
  const rows = deflateSync(Buffer.alloc((1 + Math.ceil(side / 8)) * side));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', rows),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
