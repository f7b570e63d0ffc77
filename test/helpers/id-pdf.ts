import { deflateSync } from 'node:zlib';
import sharp from 'sharp';

/**
 * A one-page PDF holding a JPEG on an A4 page, as a scanner or a "save as PDF" of a photo
 * makes it (PDF 1.4, one DCTDecode image XObject, a valid cross-reference table).
 */
export async function pdfWithImage(image: Buffer, pages = 1): Promise<Buffer> {
  const jpeg = await sharp(image).flatten({ background: '#ffffff' }).jpeg({ quality: 90 }).toBuffer();
  const { width, height } = await sharp(jpeg).metadata();
  const [pageWidth, pageHeight] = [595, 842];
  const content = `q ${pageWidth} 0 0 ${pageHeight} 0 0 cm /Im0 Do Q`;
  const kids = Array.from({ length: pages }, (_, i) => `${3 + i} 0 R`).join(' ');
  const objects: Array<string | Buffer> = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`,
    ...Array.from(
      { length: pages },
      () =>
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${pageWidth} ${pageHeight}] /Resources << /XObject << /Im0 ${3 + pages} 0 R >> >> /Contents ${4 + pages} 0 R >>`,
    ),
    Buffer.concat([
      Buffer.from(
        `<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode /Length ${jpeg.length} >>\nstream\n`,
      ),
      jpeg,
      Buffer.from('\nendstream'),
    ]),
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ];
  return assemblePdf(objects);
}

/** Objects numbered from 1, the first the catalog, with a valid cross-reference table. */
export function assemblePdf(objects: Array<string | Buffer>): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  const offsets: number[] = [];
  let position = parts[0]!.length;
  objects.forEach((object, i) => {
    offsets.push(position);
    const part = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`),
      Buffer.isBuffer(object) ? object : Buffer.from(object),
      Buffer.from('\nendobj\n'),
    ]);
    parts.push(part);
    position += part.length;
  });
  const xref =
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n` +
    offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('') +
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${position}\n%%EOF\n`;
  parts.push(Buffer.from(xref));
  return Buffer.concat(parts);
}

/**
 * A hostile PDF: one page drawing a single `side` × `side` one-bit image of zeros, a few
 * kilobytes deflated that would decode to `side`² pixels (12,000² is 144 megapixels).
 */
export function pdfWithHugeImage(side: number): Buffer {
  const stream = deflateSync(Buffer.alloc(Math.ceil(side / 8) * side));
  const content = 'q 595 0 0 842 0 0 cm /Im0 Do Q';
  const objects: Array<string | Buffer> = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>',
    Buffer.concat([
      Buffer.from(
        `<< /Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceGray /BitsPerComponent 1 /Filter /FlateDecode /Length ${stream.length} >>\nstream\n`,
      ),
      stream,
      Buffer.from('\nendstream'),
    ]),
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ];
  return assemblePdf(objects);
}
