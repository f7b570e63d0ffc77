import { createHash } from 'node:crypto';
import { prepareImage, type PreparedImage, type PrepareOptions } from '../../src/operations/ocr-idcard/preprocess.js';
import type { RawImage } from '../../src/providers/ocr/pdf-page.js';

/**
 * `prepareImage` as the ID reader's tests hand it to the operation (`OcrIdcardDeps.prepare`):
 * the real preparation, done once per distinct image and options and given back as a copy each
 * time after. Their engines are fakes that answer what the test decided, so the same blank page
 * was prepared again in every test (half a second each: scaled to 1400 px, flattened, its skew
 * searched); what the tests check (slots, budgets, re-reads, what is taken from which reading)
 * does not depend on preparing it again.
 */
export function sharedPreparation(): typeof prepareImage {
  const prepared = new Map<string, Promise<PreparedImage>>();
  return async (source: Buffer | RawImage, options: PrepareOptions = {}) => {
    const bytes = Buffer.isBuffer(source) ? source : source.data;
    const shape = Buffer.isBuffer(source) ? 'encoded' : `${source.width}x${source.height}x${source.channels}`;
    const key = `${createHash('sha256').update(bytes).digest('hex')} ${shape} ${JSON.stringify(options)}`;
    let image = prepared.get(key);
    if (!image) {
      image = prepareImage(source, options);
      prepared.set(key, image);
      image.catch(() => prepared.delete(key));
    }
    const { png, ...rest } = await image;
    return { ...rest, png: Buffer.from(png) };
  };
}
