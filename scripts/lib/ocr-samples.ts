import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sharedDataPath } from '../../test/helpers/shared-data.js';

/** The outside ID specimens, read in place from ../shared/data (their sources: SOURCES.md there). */
export const SAMPLES = sharedDataPath('ocr-samples/');

/** One image to read and what it says. */
export interface Item {
  set: string;
  label: string;
  image: Buffer;
  truth: Record<string, string>;
  skip: string[];
  /** 업태/종목 truths that hold the first printed row only (truth.json's note for the NTS scan): the answer's first row is scored. */
  firstRowOnly?: boolean;
}

export function outsideSet(): Item[] {
  const truthFile = join(SAMPLES, 'truth.json');
  if (!existsSync(truthFile)) {
    console.log(`outside samples: ${SAMPLES} is absent, set skipped`);
    return [];
  }
  const rows = JSON.parse(readFileSync(truthFile, 'utf8')) as Array<{
    file: string;
    truth: Record<string, string>;
    api_skip?: string[];
    note?: string;
  }>;
  return rows.map((row) => ({
    set: 'outside',
    label: row.file,
    image: readFileSync(join(SAMPLES, row.file)),
    truth: row.truth,
    skip: row.api_skip ?? [],
    firstRowOnly: /first is scored/.test(row.note ?? ''),
  }));
}

/** Whitespace and punctuation out; dates as Y-M-D digits; numbers as digits. */
export function normalise(field: string, value: string): string {
  if (field === 'issue_date') {
    const m = /(\d{4})\D+(\d{1,2})\D+(\d{1,2})/.exec(value);
    return m ? `${m[1]}-${Number(m[2])}-${Number(m[3])}` : value;
  }
  if (field === 'id_number' || field === 'license_number') return value.replace(/\D/g, '');
  return value.replace(/[\s.,·:;()（）\-_'"]/g, '');
}

/** The answer's value of a field as it is scored: the reader joins a 업태/종목 table's rows with ", ", and such a truth holds the first row. */
export function fieldRead(item: Item, field: string, info: Record<string, string>): string {
  const read = info[field] ?? '';
  return item.firstRowOnly && (field === 'biz_type' || field === 'biz_item') ? (read.split(', ')[0] ?? '') : read;
}
