// The portal's short-link panel (issue 36): several URLs shortened at once through the bulk
// route, and a link's statistics drawn with <meter> bars (no inline styles: the CSP forbids them).
// Uses the API key of the "try it" form; nothing is stored.
'use strict';

(() => {
  const WORDS = {
    ko: {
      title: '단축 링크: 여러 개 만들기와 통계', urls: '줄일 URL (한 줄에 하나, 최대 100개)', make: '한 번에 줄이기',
      code: '통계를 볼 코드 또는 짧은 링크', show: '통계 보기', needKey: '위 "직접 호출해 보기"에 API 키를 넣으세요.',
      total: '전체', human: '사람', bot: '봇·미리보기', qr: 'QR 스캔', direct: '직접', daily: '날짜별 클릭', visitors: '날짜별 순 방문자',
      referrers: '유입 경로', devices: '기기', os: '운영체제', browsers: '브라우저', countries: '국가',
      status: { active: '사용 중', expired: '기간 만료', used_up: '클릭 수 소진', blocked: '유해 판정으로 차단' },
      safety: { unchecked: '아직 재검사 전', ok: '재검사: 이상 없음', harmful: '재검사: 유해로 바뀜' },
      reason: '사유', expires: '만료', clicksUsed: '사용한 클릭', qrImage: 'QR 코드', none: '아직 없음', made: '만듦', existing: '이미 있음',
    },
    en: {
      title: 'Short links: several at once, and statistics', urls: 'URLs to shorten (one a line, up to 100)', make: 'Shorten all',
      code: 'Code or short link', show: 'Show statistics', needKey: 'Put an API key into "Try it" above.',
      total: 'Total', human: 'People', bot: 'Bots and previews', qr: 'QR scans', direct: 'Direct', daily: 'Clicks per day', visitors: 'Unique visitors per day',
      referrers: 'Referrers', devices: 'Devices', os: 'OS', browsers: 'Browsers', countries: 'Countries',
      status: { active: 'active', expired: 'expired', used_up: 'clicks used up', blocked: 'blocked as harmful' },
      safety: { unchecked: 'not re-checked yet', ok: 're-check: fine', harmful: 're-check: turned harmful' },
      reason: 'Reason', expires: 'Expires', clicksUsed: 'Clicks used', qrImage: 'QR code', none: 'none yet', made: 'made', existing: 'existing',
    },
  };
  const $ = (id) => document.getElementById(id);
  const words = () => WORDS[document.documentElement.lang === 'en' ? 'en' : 'ko'];
  const el = (tag, text, attrs = {}) => {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = String(text);
    for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
    return node;
  };
  const key = () => ($('try-key')?.value ?? '').trim();

  function label() {
    const w = words();
    for (const node of document.querySelectorAll('[data-links]')) node.textContent = w[node.dataset.links];
  }

  async function api(method, path, body) {
    const res = await fetch(path, {
      method,
      headers: { 'x-api-key': key(), 'accept-language': document.documentElement.lang, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, json: await res.json().catch(() => ({})) };
  }

  async function makeMany(event) {
    event.preventDefault();
    const out = $('links-bulk-result');
    out.replaceChildren();
    if (!key()) return out.append(el('li', words().needKey));
    const urls = $('links-urls').value.split(/\s+/).filter(Boolean);
    const res = await api('POST', '/api/v1/url/shorten/bulk', { urls });
    if (!res.json.success) return out.append(el('li', res.json.error ?? `HTTP ${res.status}`));
    res.json.results.forEach((item, index) => {
      const row = el('li', `${urls[index]} → `);
      if (item.success) {
        row.append(el('a', item.short_url, { href: item.short_url, rel: 'noopener' }), ` (${item.created ? words().made : words().existing})`);
      } else row.append(`⚠ ${item.error}`);
      out.append(row);
    });
  }

  /** Rows of a name, a bar scaled to the largest value, and the number. */
  function bars(title, rows) {
    const box = el('section');
    box.append(el('h3', title));
    if (rows.length === 0) return box.append(el('p', words().none)), box;
    const max = Math.max(...rows.map((row) => row.value), 1);
    const table = el('table');
    for (const row of rows) {
      const tr = el('tr');
      const bar = el('td');
      bar.append(el('meter', undefined, { min: 0, max, value: row.value, title: String(row.value) }));
      tr.append(el('th', row.name, { scope: 'row' }), bar, el('td', row.value.toLocaleString()));
      table.append(tr);
    }
    return box.append(table), box;
  }

  async function showStats(event) {
    event.preventDefault();
    const out = $('links-stats');
    out.replaceChildren();
    const w = words();
    if (!key()) return out.append(el('p', w.needKey));
    const code = $('links-code').value.trim().replace(/\+$/, '').split('/').pop();
    const res = await api('GET', `/api/v1/url/shorten/${encodeURIComponent(code)}/stats`);
    if (!res.json.success) return out.append(el('p', res.json.error ?? `HTTP ${res.status}`));
    const s = res.json;
    const head = el('p');
    head.append(el('a', s.short_url, { href: `${s.short_url}+`, rel: 'noopener' }), ` → `, el('code', s.url));
    out.append(head, el('p', `${w.status[s.status] ?? s.status} · ${w.safety[s.safety.state]}`, { id: 'links-state' }));
    if (s.safety.reason) out.append(el('p', `${w.reason}: ${s.safety.reason}`, { class: 'notice' }));
    if (s.expires_at) out.append(el('p', `${w.expires}: ${new Date(s.expires_at).toLocaleString()}`));
    if (s.max_clicks) out.append(el('p', `${w.clicksUsed}: ${s.clicks_used} / ${s.max_clicks}`));
    const c = s.clicks;
    out.append(
      bars(w.total, [
        { name: w.human, value: c.human },
        { name: w.bot, value: c.bot },
        { name: w.qr, value: c.qr ?? 0 },
        { name: w.direct, value: c.direct ?? 0 },
      ]),
      bars(w.daily, c.daily.map((day) => ({ name: day.date, value: day.total }))),
      bars(w.visitors, s.unique_visitors.map((day) => ({ name: day.date, value: day.visitors }))),
      bars(w.referrers, s.referrers.map((row) => ({ name: row.host, value: row.clicks }))),
      bars(w.devices, s.devices.map((row) => ({ name: row.name, value: row.clicks }))),
      bars(w.os, s.os.map((row) => ({ name: row.name, value: row.clicks }))),
      bars(w.browsers, s.browsers.map((row) => ({ name: row.name, value: row.clicks }))),
    );
    if (s.countries) out.append(bars(w.countries, s.countries.map((row) => ({ name: row.name, value: row.clicks }))));
    else out.append(el('p', s.countries_note));
    out.append(el('h3', w.qrImage), el('img', undefined, { src: `${s.short_url}/qr?size=160`, alt: `${w.qrImage}: ${s.short_url}`, width: 160, height: 160 }));
  }

  document.addEventListener('DOMContentLoaded', () => {
    label();
    new MutationObserver(label).observe(document.documentElement, { attributes: true, attributeFilter: ['lang'] });
    $('links-bulk-form')?.addEventListener('submit', makeMany);
    $('links-stats-form')?.addEventListener('submit', showStats);
  });
})();
