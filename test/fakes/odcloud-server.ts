import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The public-data portal's open API (api.odcloud.kr) for one file data set, as it answers:
 * `GET /api/{id}/v1/uddi:{uuid}?page&perPage&serviceKey[&returnType=JSON]` →
 * `{page, perPage, totalCount, currentCount, matchCount, data: [...]}`; an unknown key is
 * 401 `{"code":-4,"msg":"등록되지 않은 인증키 입니다."}`; a page past the end has `data: []`.
 */
export interface FakeOdcloud {
  /** The API base (`DATA_GO_KR_API_URL`). */
  apiUrl: string;
  /** Query strings the fake saw, in order. */
  requests: URLSearchParams[];
  close(): Promise<void>;
}

export async function startFakeOdcloud(options: {
  serviceKey: string;
  path: string;
  rows: Record<string, string>[];
}): Promise<FakeOdcloud> {
  const requests: URLSearchParams[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    requests.push(url.searchParams);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json;charset=UTF-8' }).end(JSON.stringify(body));
    };
    if (url.pathname !== `/api${options.path}`) return json(404, { code: -1, msg: '요청하신 API를 찾을 수 없습니다.' });
    if (url.searchParams.get('serviceKey') !== options.serviceKey) return json(401, { code: -4, msg: '등록되지 않은 인증키 입니다.' });
    const page = Number(url.searchParams.get('page') ?? 1);
    const perPage = Number(url.searchParams.get('perPage') ?? 10);
    const data = options.rows.slice((page - 1) * perPage, page * perPage);
    json(200, { page, perPage, totalCount: options.rows.length, currentCount: data.length, matchCount: options.rows.length, data });
  }).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    apiUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
