import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBusinessChecks } from '../src/operations/business/business-checks.js';
import { businessNumberProblem, compactBusinessNumber } from '../src/operations/business/business-number.js';
import { withCheckDigit } from './helpers/business-numbers.js';
import { createNtsClient } from '../src/providers/nts.js';
import { AppError } from '../src/errors.js';
import { startFakeNts, type FakeNts } from './fakes/nts-server.js';
import { createLogger } from '../src/logger.js';
import { withBusinessVerification } from '../src/operations/ocr-idcard/verify-business.js';
import { ocrIdcardSchema } from '../src/operations/ocr-idcard/ocr-idcard.schema.js';
import type { OcrIdcardOutput } from '../src/operations/ocr-idcard/ocr-idcard.js';
import type { Operation } from '../src/platform/execute.js';

const ACTIVE = '1248100998'; // a well-known listed company's published number
const SUSPENDED = withCheckDigit('220810001');
const CLOSED = withCheckDigit('105870002');
const UNKNOWN = withCheckDigit('999880003');

let nts: FakeNts;
let now = new Date('2026-11-27T00:00:00Z');
const clock = () => now;
const logger = createLogger('silent');

beforeAll(async () => {
  nts = await startFakeNts();
  nts.business({ b_no: ACTIVE, state: '01', start_dt: '19690113', p_nm: '홍길동', b_nm: '주식회사 예시', b_type: '반도체' });
  nts.business({ b_no: SUSPENDED, state: '02', start_dt: '20200301', p_nm: '김영희', tax_type_cd: '02' });
  nts.business({ b_no: CLOSED, state: '03', start_dt: '20150101', p_nm: '이철수', end_dt: '20231130' });
});
afterAll(() => nts.close());

const checks = (serviceKey = nts.serviceKey) =>
  createBusinessChecks({ client: createNtsClient({ baseUrl: nts.url, serviceKey, logger }), clock });

describe('business numbers', () => {
  it('accepts a number with a valid check digit, written any common way', () => {
    expect(compactBusinessNumber('124-81-00998')).toBe(ACTIVE);
    expect(businessNumberProblem(compactBusinessNumber('124 81 00998'))).toBeUndefined();
  });

  it('refuses a wrong check digit, a wrong length and a 13-digit number (never sent anywhere)', () => {
    expect(businessNumberProblem('1248100999')).toMatch(/검증 숫자/);
    expect(businessNumberProblem('12481009')).toMatch(/10자리/);
    expect(businessNumberProblem('9001011234567')).toMatch(/주민등록번호/);
  });
});

describe('NTS status', () => {
  it('maps 계속/휴업/폐업 and an unregistered number to codes and Korean text', async () => {
    const answers = await checks().status([ACTIVE, SUSPENDED, CLOSED, UNKNOWN], logger);
    expect(answers.map((a) => [a.status, a.status_text])).toEqual([
      ['active', '계속사업자'],
      ['suspended', '휴업자'],
      ['closed', '폐업자'],
      ['unknown', '국세청에 등록되지 않은 사업자등록번호입니다.'],
    ]);
    expect(answers[0]).toMatchObject({ b_no: '124-81-00998', tax_type: '부가가치세 일반과세자', tax_type_code: '01', closed_at: null });
    expect(answers[1]!.tax_type).toBe('부가가치세 간이과세자');
    expect(answers[2]!.closed_at).toBe('2023-11-30');
  });

  it('asks once per number per day, in batches of at most 100', async () => {
    const service = checks();
    const numbers = Array.from({ length: 150 }, (_, i) => withCheckDigit(String(300000000 + i)));
    const before = nts.requests.length;
    await service.status(numbers, logger);
    await service.status(numbers.slice(0, 10), logger);
    const sent = nts.requests.slice(before).map((r) => (r.body as { b_no: string[] }).b_no.length);
    expect(sent).toEqual([100, 50]);
    now = new Date(now.getTime() + 86_400_000 + 1);
    await service.status(numbers.slice(0, 10), logger);
    expect(nts.requests.length - before).toBe(3);
  });

  it('an unknown key, a broken answer and an outage are 502s that say what happened', async () => {
    await expect(checks('wrong').status([ACTIVE], logger)).rejects.toMatchObject({ status: 502, message: expect.stringMatching(/인증키/) });
    nts.failNext(500, '{"status_code":"INTERNAL_ERROR"}');
    await expect(checks().status([ACTIVE], logger)).rejects.toMatchObject({
      status: 502,
      message: expect.stringMatching(/INTERNAL_ERROR/),
    });
    nts.failNext(200, '<html>maintenance</html>');
    await expect(checks().status([ACTIVE], logger)).rejects.toBeInstanceOf(AppError);
    nts.failNext(429, '{"message":"API rate limit exceeded"}');
    await expect(checks().status([ACTIVE], logger)).rejects.toMatchObject({ status: 502, retryAfterSeconds: 60 });
  });

  it('without a key the checks are off and say which variable to set', async () => {
    const off = createBusinessChecks({ clock });
    expect(off.available).toBe(false);
    await expect(off.status([ACTIVE], logger)).rejects.toMatchObject({
      status: 503,
      message: expect.stringMatching(/DATA_GO_KR_SERVICE_KEY/),
    });
  });
});

describe('NTS validation', () => {
  it('all fields agree', async () => {
    const result = await checks().validate({ b_no: ACTIVE, start_dt: '19690113', p_nm: '홍길동' }, logger);
    expect(result).toMatchObject({ valid: true, mismatched_fields: [], status: { status: 'active' } });
  });

  it('an unregistered number is named as the field that does not agree', async () => {
    const result = await checks().validate({ b_no: UNKNOWN, start_dt: '20200101', p_nm: '홍길동' }, logger);
    expect(result).toMatchObject({ valid: false, mismatched_fields: ['b_no'] });
  });

  it('a wrong name or date is one of the two required fields; a wrong optional field is named alone, in one call', async () => {
    const service = checks();
    expect(await service.validate({ b_no: ACTIVE, start_dt: '19690113', p_nm: '홍길순' }, logger)).toMatchObject({
      valid: false,
      mismatched_fields: ['start_dt', 'p_nm'],
    });
    const before = nts.requests.filter((r) => r.path.endsWith('/validate')).length;
    const wrongName = await service.validate(
      { b_no: ACTIVE, start_dt: '19690113', p_nm: '홍길동', b_nm: '다른 상호', b_type: '반도체' },
      logger,
    );
    expect(wrongName).toMatchObject({ valid: false, mismatched_fields: ['b_nm'] });
    expect(wrongName.message).toMatch(/상호가 국세청/);
    expect(nts.requests.filter((r) => r.path.endsWith('/validate')).length - before).toBe(1);
  });
});

describe('the reader with verify: true', () => {
  const info = (overrides: Partial<OcrIdcardOutput['info']>): OcrIdcardOutput['info'] => ({
    type: '사업자등록증',
    name: '주식회사 예시',
    id_number: '124-81-00998',
    representative: '홍길동',
    address: '서울특별시 중구 세종대로 110',
    issue_date: '1969.01.13.',
    biz_type: '제조업',
    biz_item: '반도체',
    ...overrides,
  });
  const reader = (read: OcrIdcardOutput['info']): Operation<typeof ocrIdcardSchema, OcrIdcardOutput> => ({
    api: 'ocr-idcard',
    schema: ocrIdcardSchema,
    run: async (): Promise<OcrIdcardOutput> => ({ info: read, raw_text: '', confidence: {}, warnings: [], engine: 'tesseract' }),
  });
  const ctx = { logger, account: { id: 1 } } as unknown as Parameters<ReturnType<typeof withBusinessVerification>['run']>[0];
  const input = { base64_image: 'x', mask: false, verify: true };

  it('adds the status and the validation of what was read', async () => {
    const out = await withBusinessVerification(reader(info({})), checks()).run(ctx, input);
    expect(out.verification).toMatchObject({ checked: true, status: { status: 'active' }, validation: { valid: true } });
  });

  it('never checks a resident card, and says why', async () => {
    const before = nts.requests.length;
    const out = await withBusinessVerification(reader(info({ type: '주민등록증', id_number: '900101-1234567' })), checks()).run(ctx, input);
    expect(out.verification).toMatchObject({ checked: false, reason: expect.stringMatching(/사업자등록증이 아니어서/) });
    expect(nts.requests.length).toBe(before);
  });

  it('is "unavailable" without a key, absent without verify, and a warning (not an error) when the NTS fails', async () => {
    const off = await withBusinessVerification(reader(info({})), createBusinessChecks({ clock })).run(ctx, input);
    expect(off.verification).toBe('unavailable');
    const plain = await withBusinessVerification(reader(info({})), checks()).run(ctx, { ...input, verify: false });
    expect(plain.verification).toBeUndefined();
    nts.failNext(500, '{"status_code":"INTERNAL_ERROR"}');
    const failed = await withBusinessVerification(reader(info({ id_number: SUSPENDED })), checks()).run(ctx, input);
    expect(failed.verification).toMatchObject({ checked: false, reason: expect.stringMatching(/국세청 확인에 실패/) });
    expect(failed.info.name).toBe('주식회사 예시');
  });
});
