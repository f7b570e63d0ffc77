import { PDFDocument } from '@napi-rs/canvas';
import { Document, HeadingLevel, Packer, Paragraph, TextRun } from 'docx';
import { registerCanvasFonts } from './korean-fonts.js';

/**
 * Real files of each kind the knowledge base reads, written by real writers from text the
 * test gives: a PDF with a text layer (Skia's PDF backend in @napi-rs/canvas, a Korean font
 * embedded), a DOCX (the `docx` package), and Markdown, HTML and plain text as people write them.
 */

/** The family name of a Korean font from npm, registered with @napi-rs/canvas (test/helpers/korean-fonts.ts). */
export function koreanFont(): string {
  registerCanvasFonts();
  return 'NanumGothic';
}

/** A PDF whose pages carry the given lines as real text (selectable, in the text layer). */
export function pdfWithText(pages: string[][]): Buffer {
  const font = koreanFont();
  const doc = new PDFDocument({ title: 'test' });
  for (const lines of pages) {
    const ctx = doc.beginPage(595, 842);
    ctx.fillStyle = '#000000';
    ctx.font = `14px ${font}`;
    lines.forEach((line, i) => ctx.fillText(line, 50, 80 + i * 24));
    doc.endPage();
  }
  return doc.close();
}

/** A DOCX with a heading and one paragraph per text. */
export async function docxWithText(heading: string, paragraphs: string[]): Promise<Buffer> {
  const document = new Document({
    sections: [
      {
        children: [
          new Paragraph({ text: heading, heading: HeadingLevel.HEADING_1 }),
          ...paragraphs.map((text) => new Paragraph({ children: [new TextRun(text)] })),
        ],
      },
    ],
  });
  return Packer.toBuffer(document);
}

export const base64 = (data: Buffer | string) => Buffer.from(data).toString('base64');
