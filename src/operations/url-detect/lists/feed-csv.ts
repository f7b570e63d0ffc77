import { entryExpression } from './expressions.js';

/**
 * CSV feeds as their publishers write them: URLhaus's dump (a commented header, the URL in the
 * third column) and KISA's phishing-site file (`날짜,홈페이지주소`, a BOM or CP949, Korean dates,
 * URLs without a scheme, a note `외11건` after some URLs). The column the header row names is
 * read; without such a header, the first field that holds a URL or a host name.
 */

/** Header names of the column that holds the address (compared without case, blanks or `_`). */
const URL_COLUMNS = new Set([
  'url',
  'urls',
  'uri',
  'link',
  'host',
  'hostname',
  'domain',
  '홈페이지주소',
  '홈페이지',
  '주소',
  'url주소',
  '사이트주소',
  '피싱사이트',
  '피싱사이트url',
  '도메인',
  '링크',
]);

/** What a line sink hears from the CSV reader. */
export interface CsvSink {
  entry(expression: string): void;
  skipped(line: string): void;
}

/** A reader of one CSV feed's lines, in order: it remembers the column its header named. */
export function csvLineParser(sink: CsvSink): (line: string) => void {
  let column: number | undefined;
  let firstRow = true;
  return (rawLine) => {
    const line = rawLine.trim();
    if (!line || line.startsWith('#')) return;
    const fields = splitCsvLine(line);
    const first = firstRow;
    firstRow = false;
    if (column === undefined) {
      const named = fields.findIndex(isUrlColumn);
      if (named !== -1) {
        column = named;
        return;
      }
    }
    const expression = column !== undefined ? addressExpression(fields[column] ?? '') : firstAddress(fields);
    if (expression) sink.entry(expression);
    else if (!(first && isHeaderLike(fields))) sink.skipped(line);
  };
}

/** True for a column name that holds the address (`홈페이지주소`, `URL`, `url`, `Domain`…). */
export function isUrlColumn(name: string): boolean {
  return URL_COLUMNS.has(columnKey(name));
}

/** One value as a CSV field (quoted when it holds a comma, a quote or a line break). */
export function csvCell(value: string): string {
  const flat = value.replace(/[\r\n]+/g, ' ');
  return /[",]/.test(flat) ? `"${flat.replace(/"/g, '""')}"` : flat;
}

function columnKey(field: string): string {
  let key = '';
  for (const char of field.toLowerCase()) if (char !== ' ' && char !== '_' && char !== '-') key += char;
  return key;
}

/** A header without a URL column (`id,dateadded,…`): nothing in it looks like an address. */
function isHeaderLike(fields: string[]): boolean {
  return fields.every((field) => !field.includes('.'));
}

/** The first field holding a URL or a host name (dates and numbers are neither). */
function firstAddress(fields: string[]): string | undefined {
  for (const field of fields) {
    if (!/^https?:\/\//i.test(field) && !/^[^\s/:]+\.[^\s/:]/.test(field)) continue;
    if (/^\d{4}-\d\d-\d\d/.test(field) || /^[\d.]+$/.test(field)) continue;
    const expression = addressExpression(field);
    if (expression) return expression;
  }
  return undefined;
}

/** One address cell as a list expression: the publisher's note (`외`, `외 27건`) dropped, a typed `http;//` read as `http://`. */
export function addressExpression(cell: string): string | undefined {
  const text = withoutCountNote(cell.trim()).replace(/^(https?);\/\//i, '$1://');
  return text ? entryExpression(text) : undefined;
}

/**
 * `con08.nu8w.love 외11건`, `cop.y4z7.cash 외 27건`, `http://zx12.t6ve.site외` → the address alone
 * ("and N more" is the reporter's note, not part of the URL). Only the cell's last few
 * characters are looked at.
 */
export function withoutCountNote(text: string): string {
  const tail = text.slice(-12);
  const note = /\s*외\s*(\d+\s*건)?$/.exec(tail);
  return note ? text.slice(0, text.length - tail.length + note.index).trimEnd() : text;
}

/**
 * Splits one CSV line (RFC 4180 quoting: `"a,b"`, `""` for a quote) in one pass; blanks around
 * unquoted fields are trimmed.
 */
export function splitCsvLine(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  let wasQuoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (quoted) {
      if (char !== '"') field += char;
      else if (line[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = false;
    } else if (char === '"' && field.trim() === '') {
      quoted = true;
      wasQuoted = true;
      field = '';
    } else if (char === ',') {
      fields.push(wasQuoted ? field : field.trim());
      field = '';
      wasQuoted = false;
    } else if (!wasQuoted) field += char;
  }
  fields.push(wasQuoted ? field : field.trim());
  return fields;
}
