import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeNts, type FakeNts } from './fakes/nts-server.js';
import { withCheckDigit } from './helpers/business-numbers.js';
import { startTestApp, type TestApp, type TestUser } from './helpers/app.js';

const ACTIVE = '1248100998';
const CLOSED = withCheckDigit('105870002');

let nts: FakeNts;
let app: TestApp;
let off: TestApp;
let user: TestUser;

beforeAll(async () => {
  nts = await startFakeNts();
  nts.business({ b_no: ACTIVE, state: '01', start_dt: '19690113', p_nm: '홍길동', b_nm: '주식회사 예시' });
  nts.business({ b_no: CLOSED, state: '03', start_dt: '20150101', p_nm: '이철수', end_dt: '20231130' });
  // Configured only by environment variables, as `npm start` is.
  app = await startTestApp({ DEFAULT_QUOTA: '20', DATA_GO_KR_SERVICE_KEY: nts.serviceKey, DATA_GO_KR_API_URL: nts.url });
  off = await startTestApp();
  user = await app.signUp();
});
afterAll(async () => {
  await Promise.all([app.close(), off.close(), nts.close()]);
});

const remaining = async () => (await app.remaining(user.apiKey, 'ocr-idcard'))!;

describe('POST /api/v1/business/status', () => {
  it('answers each number in order, in Korean with codes, and charges one ocr-idcard call per number', async () => {
    const before = await remaining();
    const res = await app.post('/api/v1/business/status', { b_no: ['124-81-00998', CLOSED] }, user.apiKey);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      api: 'ocr-idcard',
      remaining: before - 2,
      businesses: [
        { b_no: '124-81-00998', status: 'active', status_text: '계속사업자', tax_type: '부가가치세 일반과세자', closed_at: null },
        { status: 'closed', status_text: '폐업자', closed_at: '2023-11-30' },
      ],
    });
  });

  it('refuses a wrong check digit and a resident number with a 400 naming the field, free, and never asks the NTS', async () => {
    const before = await remaining();
    const asked = nts.requests.length;
    const wrong = await app.post('/api/v1/business/status', { b_no: '124-81-00999' }, user.apiKey);
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ success: false, code: 400, error_code: 'INVALID_REQUEST' });
    expect(JSON.stringify(wrong.body)).toMatch(/b_no/);
    const resident = await app.post('/api/v1/business/status', { b_no: '900101-1234567' }, user.apiKey);
    expect(resident.status).toBe(400);
    expect((resident.body as { error: string }).error).toMatch(/주민등록번호/);
    expect(nts.requests.length).toBe(asked);
    expect(await remaining()).toBe(before);
  });

  it('an NTS failure is a 502 and the call is given back', async () => {
    const before = await remaining();
    nts.failNext(500, '{"status_code":"INTERNAL_ERROR"}');
    const res = await app.post('/api/v1/business/status', { b_no: withCheckDigit('777770001') }, user.apiKey);
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ success: false, code: 502, error_code: 'UPSTREAM_ERROR' });
    expect(await remaining()).toBe(before);
  });

  it('without DATA_GO_KR_SERVICE_KEY the check is off: 503 naming the variable, refunded', async () => {
    const other = await off.signUp();
    const res = await off.post('/api/v1/business/status', { b_no: ACTIVE }, other.apiKey);
    expect(res.status).toBe(503);
    expect((res.body as { error: string }).error).toMatch(/DATA_GO_KR_SERVICE_KEY/);
    expect(await off.remaining(other.apiKey, 'ocr-idcard')).toBe(1000);
  });
});

describe('POST /api/v1/business/validate', () => {
  it('says which field does not agree', async () => {
    const ok = await app.post('/api/v1/business/validate', { b_no: ACTIVE, start_dt: '1969-01-13', p_nm: '홍길동' }, user.apiKey);
    expect(ok.body).toMatchObject({ success: true, valid: true, mismatched_fields: [], status: { status: 'active' } });
    const wrongName = await app.post(
      '/api/v1/business/validate',
      { b_no: ACTIVE, start_dt: '19690113', p_nm: '홍길동', b_nm: '다른 회사' },
      user.apiKey,
    );
    expect(wrongName.body).toMatchObject({ valid: false, mismatched_fields: ['b_nm'] });
  });

  it('a malformed opening date is a 400 naming start_dt', async () => {
    const res = await app.post('/api/v1/business/validate', { b_no: ACTIVE, start_dt: '13/01/1969', p_nm: '홍길동' }, user.apiKey);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(/start_dt/);
  });
});
