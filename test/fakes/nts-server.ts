import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake of the National Tax Service's business APIs on the public-data portal
 * (`POST /nts-businessman/v1/status` and `/validate`, `serviceKey` in the query) with the real
 * answer shapes:
 *
 * - status: `{request_cnt, match_cnt, status_code: "OK", data: [{b_no, b_stt, b_stt_cd, tax_type,
 *   tax_type_cd, end_dt, utcc_yn, tax_type_change_dt, invoice_apply_dt, rbf_tax_type, rbf_tax_type_cd}]}`,
 *   an unknown number with empty fields and `tax_type` "국세청에 등록되지 않은 사업자등록번호입니다.";
 * - validate: `{request_cnt, valid_cnt, status_code: "OK", data: [{b_no, valid: "01", request_param,
 *   status}] | [{b_no, valid: "02", valid_msg: "확인할 수 없습니다.", request_param}]}`, in the order asked;
 * - errors: `{status_code}` `BAD_JSON_REQUEST` / `REQUEST_DATA_MALFORMED` (400),
 *   `TOO_LARGE_REQUEST` (413), `INTERNAL_ERROR` (500); the gateway's `{code: -4, msg}` (401) for an
 *   unknown key and `{message: "API rate limit exceeded"}` (429) past `ratePerWindow`.
 */

export interface FakeBusiness {
  b_no: string;
  /** 01 계속사업자, 02 휴업자, 03 폐업자. */
  state: '01' | '02' | '03';
  start_dt: string;
  p_nm: string;
  b_nm?: string;
  b_sector?: string;
  b_type?: string;
  /** YYYYMMDD for a closed business. */
  end_dt?: string;
  tax_type_cd?: '01' | '02' | '03' | '04' | '05' | '06' | '07';
}

const STATE_NAMES = { '01': '계속사업자', '02': '휴업자', '03': '폐업자' } as const;
const TAX_TYPES = {
  '01': '부가가치세 일반과세자',
  '02': '부가가치세 간이과세자',
  '03': '부가가치세 과세특례자',
  '04': '부가가치세 면세사업자',
  '05': '수익사업을 영위하지 않는 비영리법인이거나 고유번호가 부여된 단체,국가기관 등',
  '06': '고유번호가 부여된 단체',
  '07': '부가가치세 간이과세자(세금계산서 발급사업자)',
} as const;
const UNREGISTERED = '국세청에 등록되지 않은 사업자등록번호입니다.';

export interface FakeNts {
  url: string;
  serviceKey: string;
  business(record: FakeBusiness): void;
  /** Answers the next request with this status and raw body. */
  failNext(status: number, body: string): void;
  /** Every request body received, in order (tests assert what was sent and how often). */
  requests: Array<{ path: string; body: unknown }>;
  close(): Promise<void>;
}

export async function startFakeNts(options: { serviceKey?: string; ratePerWindow?: number } = {}): Promise<FakeNts> {
  const serviceKey = options.serviceKey ?? 'test+key/with==';
  const businesses = new Map<string, FakeBusiness>();
  const failures: Array<{ status: number; body: string }> = [];
  const requests: FakeNts['requests'] = [];
  let windowCount = 0;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json;charset=UTF-8' });
        res.end(typeof body === 'string' ? body : JSON.stringify(body));
      };
      const url = new URL(req.url ?? '/', 'http://fake');
      if (url.searchParams.get('serviceKey') !== serviceKey) return send(401, { code: -4, msg: '등록되지 않은 인증키 입니다.' });
      const failure = failures.shift();
      if (failure) return send(failure.status, failure.body);
      if (options.ratePerWindow !== undefined && ++windowCount > options.ratePerWindow) {
        return send(429, { message: 'API rate limit exceeded' });
      }
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        return send(400, { status_code: 'BAD_JSON_REQUEST' });
      }
      requests.push({ path: url.pathname, body });
      if (req.method !== 'POST') return send(405, { status_code: 'HTTP_ERROR' });
      if (url.pathname.endsWith('/nts-businessman/v1/status')) return status(body, send);
      if (url.pathname.endsWith('/nts-businessman/v1/validate')) return validate(body, send);
      send(404, { status_code: 'HTTP_ERROR' });
    });
  });

  function statusRow(number: string) {
    const record = businesses.get(number);
    if (!record) {
      return {
        b_no: number,
        b_stt: '',
        b_stt_cd: '',
        tax_type: UNREGISTERED,
        tax_type_cd: '',
        end_dt: '',
        utcc_yn: '',
        tax_type_change_dt: '',
        invoice_apply_dt: '',
        rbf_tax_type: '',
        rbf_tax_type_cd: '',
      };
    }
    const tax = record.tax_type_cd ?? '01';
    return {
      b_no: number,
      b_stt: STATE_NAMES[record.state],
      b_stt_cd: record.state,
      tax_type: TAX_TYPES[tax],
      tax_type_cd: tax,
      end_dt: record.end_dt ?? '',
      utcc_yn: 'N',
      tax_type_change_dt: '',
      invoice_apply_dt: '',
      rbf_tax_type: '해당없음',
      rbf_tax_type_cd: '99',
    };
  }

  function status(body: Record<string, unknown>, send: (status: number, body: unknown) => void) {
    const numbers = body.b_no;
    if (!Array.isArray(numbers) || numbers.length === 0 || !numbers.every((n) => typeof n === 'string')) {
      return send(400, { status_code: 'REQUEST_DATA_MALFORMED' });
    }
    if (numbers.length > 100) return send(413, { status_code: 'TOO_LARGE_REQUEST' });
    const data = (numbers as string[]).map(statusRow);
    send(200, { request_cnt: data.length, match_cnt: data.filter((row) => row.b_stt_cd).length, status_code: 'OK', data });
  }

  function validate(body: Record<string, unknown>, send: (status: number, body: unknown) => void) {
    const list = body.businesses;
    if (!Array.isArray(list) || list.length === 0) return send(400, { status_code: 'REQUEST_DATA_MALFORMED' });
    if (list.length > 100) return send(413, { status_code: 'TOO_LARGE_REQUEST' });
    const data = [];
    for (const item of list as Array<Record<string, string | undefined>>) {
      if (!item.b_no || !item.start_dt || !item.p_nm) return send(400, { status_code: 'REQUEST_DATA_MALFORMED' });
      const record = businesses.get(item.b_no);
      const agrees =
        record !== undefined &&
        record.start_dt === item.start_dt &&
        record.p_nm === item.p_nm &&
        (['b_nm', 'b_sector', 'b_type'] as const).every((field) => !item[field] || item[field] === record[field]);
      const request_param = {
        b_no: item.b_no,
        start_dt: item.start_dt,
        p_nm: item.p_nm,
        p_nm2: item.p_nm2 ?? '',
        b_nm: item.b_nm ?? '',
        corp_no: item.corp_no ?? '',
        b_sector: item.b_sector ?? '',
        b_type: item.b_type ?? '',
        b_adr: item.b_adr ?? '',
      };
      data.push(
        agrees
          ? { b_no: item.b_no, valid: '01', request_param, status: statusRow(item.b_no) }
          : { b_no: item.b_no, valid: '02', valid_msg: '확인할 수 없습니다.', request_param },
      );
    }
    send(200, { request_cnt: data.length, valid_cnt: data.filter((row) => row.valid === '01').length, status_code: 'OK', data });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/api`,
    serviceKey,
    business: (record) => businesses.set(record.b_no, record),
    failNext: (status, body) => failures.push({ status, body }),
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
