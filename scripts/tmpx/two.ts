import { readFileSync } from 'node:fs';
import { createTesseractPool } from '../../src/providers/ocr/tesseract-pool.js';
import { prepareImage } from '../../src/operations/ocr-idcard/preprocess.js';
const dir = '/work/shared/data/ocr-samples/';
const pool = createTesseractPool({ size: 1 });
for (const f of ['out_id_kimlia_1.jpg', 'out_id_kimlia_2.jpg', 'out_biz_docugen.jpg', 'out_id_kimlia_aug.jpg']) {
  const src = readFileSync(dir + f);
  for (const [label, opts] of [['default', {}], ['luminance1800', { ink: 'luminance', longSide: 1800 }], ['default2000', { longSide: 2000 }]] as const) {
    const read = await pool.recognize((await prepareImage(src, opts as never)).png);
    console.log(f, label);
    for (const l of read.lines) if (/[면읍동로길]|20\d\d/.test(l.text)) console.log('   ', (l.words ?? []).map((w) => `${w.text}:${Math.round(w.confidence)}`).join(' '));
  }
}
process.exit(0);
