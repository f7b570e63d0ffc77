import { readFileSync } from 'node:fs';
import { prepareImage } from '../src/operations/ocr-idcard/preprocess.js';
import { parseDocument } from '../src/operations/ocr-idcard/parse.js';
import { createTesseractPool } from '../src/providers/ocr/tesseract-pool.js';
const pool = createTesseractPool({ size: 2 });
await Promise.all(process.argv.slice(2).map(async (file) => {
  const img = await prepareImage(readFileSync(file));
  const read = await pool.recognize(img.png);
  console.log(`--- ${file} ${img.width}x${img.height} skew ${img.skewDegrees}\n${read.lines.map((l) => `${Math.round(l.confidence)} | ${l.text}`).join('\n')}\n${JSON.stringify(parseDocument(read.text)?.info)}`);
}));
await pool.close();
