import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readJsonBody } from '../api/json-body.js';
import { AppError } from '../src/errors.js';

/** A request as node:http hands it over: a readable body and its headers. */
function requestOf(body: Buffer | string, headers: Record<string, string>): IncomingMessage {
  const req = Readable.from([Buffer.from(body)]) as unknown as IncomingMessage;
  req.headers = headers;
  return req;
}

const sized = (body: Buffer | string, headers: Record<string, string> = {}) =>
  requestOf(body, { 'content-length': String(Buffer.byteLength(body)), ...headers });

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return { code: (error as AppError).code, message: (error as AppError).message };
}

describe('the JSON body reader both doors use (api/json-body.ts)', () => {
  it('reads an object or an array, a byte-order mark dropped, a chunked body too', async () => {
    expect(await readJsonBody(sized('{"url":"https://예시.kr/"}'), 1024)).toEqual({ url: 'https://예시.kr/' });
    expect(await readJsonBody(sized('\ufeff[1,2]'), 1024)).toEqual([1, 2]);
    expect(await readJsonBody(requestOf('{"a":1}', { 'transfer-encoding': 'chunked' }), 1024)).toEqual({ a: 1 });
  });

  it('gives no body as undefined and an empty one as {} (as body-parser did)', async () => {
    expect(await readJsonBody(requestOf('', {}), 1024)).toBeUndefined();
    expect(await readJsonBody(sized(''), 1024)).toEqual({});
  });

  it('refuses what is not strict JSON as INVALID_JSON', async () => {
    for (const body of ['"text"', '42', '   ', '{"url": ']) {
      expect(await refusal(readJsonBody(sized(body), 1024))).toMatchObject({ code: 'INVALID_JSON' });
    }
  });

  it('accepts UTF-8 however it is spelled, and refuses another charset or encoding naming UTF-8 JSON', async () => {
    expect(await readJsonBody(sized('{}', { 'content-type': 'application/json; charset="UTF-8"' }), 1024)).toEqual({});
    expect(await readJsonBody(sized('{}', { 'content-type': 'text/plain' }), 1024)).toEqual({});
    const refused: Array<Record<string, string>> = [
      { 'content-type': 'application/json; charset=latin1' },
      { 'content-encoding': 'compress' },
    ];
    for (const headers of refused) {
      expect(await refusal(readJsonBody(sized('{}', headers), 1024))).toEqual({
        code: 'INVALID_REQUEST',
        message: '요청 본문은 UTF-8 JSON이어야 합니다.',
      });
    }
  });

  it('inflates gzip, counting the inflated bytes against the limit', async () => {
    expect(await readJsonBody(sized(gzipSync('{"a":1}'), { 'content-encoding': 'gzip' }), 1024)).toEqual({ a: 1 });
    const bomb = gzipSync(`{"a":"${'x'.repeat(2 * 1024 * 1024)}"}`);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expect(await refusal(readJsonBody(sized(bomb, { 'content-encoding': 'gzip' }), 1024 * 1024))).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
    });
  });

  it('refuses a declared length over the limit before reading, and a body that grows past it', async () => {
    const declared = requestOf('{}', { 'content-length': String(2 * 1024 * 1024) });
    expect(await refusal(readJsonBody(declared, 1024 * 1024))).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      message: '요청 본문이 너무 큽니다 (최대 1MB).',
    });
    const chunked = requestOf(`{"a":"${'x'.repeat(2048)}"}`, { 'transfer-encoding': 'chunked' });
    expect(await refusal(readJsonBody(chunked, 1024))).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });
});
