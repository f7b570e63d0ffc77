// The developer portal: sign-up, keys, subscriptions and a "try it" panel, over the public API.
// No framework: a handful of fetch calls and DOM updates. The login token lives in sessionStorage
// (gone with the tab); a new API key is shown once and never stored.
'use strict';

const TEXT = {
  ko: {
    skip: '본문으로 건너뛰기', docs: 'API 문서', lead: '한국 팀을 위한 여덟 가지 AI API. 가입하고 API 키를 받으면 바로 호출할 수 있습니다.',
    introTitle: '제공하는 API', exampleTitle: '호출 예시',
    exampleLead: 'API 키를 X-API-Key 헤더에 넣어 JSON으로 요청합니다. 긴 URL을 줄여 보면:', exampleAnswer: '응답:',
    docsLink: '모든 API의 요청·응답 형식 보기 (API 문서)', terms: '이용약관', privacy: '개인정보 처리방침',
    agree: '가입하면 다음에 동의하는 것으로 봅니다:',
    quota: (n) => `가입하면 API마다 한 달에 ${n.toLocaleString('ko-KR')}회까지 무료로 호출할 수 있고, 매달 1일 0시(한국 시간)에 다시 채워집니다. 유해 URL 탐지와 택배 조회는 가입 뒤 구독 버튼을 한 번 눌러 켭니다.`,
    needsSubscription: '구독 후 사용', unavailable: '이 서버에서는 지금 쓸 수 없음',
    authTitle: '가입 / 로그인', email: '이메일', password: '비밀번호 (가입할 때는 8자 이상)', login: '로그인', register: '가입하기',
    keysTitle: 'API 키', logout: '로그아웃', keyName: '키 이름', createKey: '새 키 만들기',
    keyOnce: '이 키는 지금 한 번만 보입니다. 안전한 곳에 복사해 두세요.', copy: '복사', copied: '복사했습니다.',
    name: '이름', prefix: '접두어', lastUsed: '마지막 사용', actions: '작업', revoke: '폐기', never: '없음',
    catalogTitle: 'API 카탈로그와 남은 호출 수', category: '분류', remaining: '남은 호출', renews: '초기화',
    subscribe: '구독', subscribed: '구독 중', notSubscribed: '구독 필요',
    feedbackTitle: '챗봇 답변에 👎 받은 질문', feedbackHint: 'Slack·Discord에서 👎를 받은 질문입니다. 빠진 지식을 추가한 뒤 지우세요.', noFeedback: '아직 없습니다.', handled: '처리함',
    listsTitle: '유해 URL 목록 상태', entries: '항목 수', fetchedAt: '받은 시각', lastError: '마지막 오류', none: '없음',
    notFetched: '아직 받지 못함', noFeeds: '받아 둔 피드가 아직 없습니다.',
    guardTitle: '링크 가드가 찾은 유해 링크', guardWhen: '시각', guardWhere: '채널', guardHost: '호스트', guardAction: '조치',
    guardNote: 'Slack·Discord 채널에서 /guard on을 켜면 여기에 기록됩니다 (90일 보관, 메시지 내용은 저장하지 않음).',
    guardNone: '아직 찾은 유해 링크가 없습니다.',
    guardActions: { warned: '경고', hidden: '숨김', warned_not_hidden: '경고 (숨기지 못함)', not_warned: '경고 실패' },
    listsSummary: (n) => `지금 탐지에 쓰는 항목 ${n.toLocaleString('ko-KR')}개 (팀 목록 포함)`,
    harm: { spam: '스팸', gambling: '도박', adult: '성인', phishing: '피싱', malware: '악성코드', clean: '인기 사이트(학습용)' },
    tryTitle: '직접 호출해 보기', apiKey: 'API 키', operation: '기능', body: '요청 본문 (JSON)', send: '보내기',
    file: '신분증·사업자등록증 이미지 또는 PDF',
    fileNote: '파일은 브라우저에서 base64로 바꿔 요청에 넣습니다. 서버는 이미지를 저장하지 않습니다.',
    filePlaceholder: (name) => `(선택한 파일 ${name}의 내용이 들어갑니다)`, needFile: '이미지나 PDF 파일을 고르세요.',
    sending: '보내는 중…',
    openLink: '짧은 링크 열기', registered: '가입했습니다. 로그인했어요.', loggedIn: '로그인했습니다.',
    keyCreated: '새 API 키를 만들었습니다.', keyRevoked: 'API 키를 폐기했습니다.', subscribedTo: '구독했습니다: ',
    badJson: '요청 본문이 올바른 JSON이 아닙니다.', needKey: 'API 키를 입력하세요.', network: '서버에 연결하지 못했습니다.',
    other: 'English',
  },
  en: {
    skip: 'Skip to content', docs: 'API docs', lead: 'Eight AI APIs for Korean teams. Sign up, get an API key and call them right away.',
    introTitle: 'The APIs', exampleTitle: 'An example call',
    exampleLead: 'Send JSON with your API key in the X-API-Key header. Shortening a long URL:', exampleAnswer: 'The answer:',
    docsLink: 'Request and answer formats of every API (API docs)', terms: 'Terms of service', privacy: 'Privacy notice',
    agree: 'By signing up you agree to the',
    quota: (n) => `Each account may call every API ${n.toLocaleString('en-US')} times a month for free; counters refill at 00:00 Korea time on the 1st. Harmful URL detection and parcel tracking are switched on with one click on Subscribe after sign-up.`,
    needsSubscription: 'subscribe first', unavailable: 'not available on this server right now',
    authTitle: 'Sign up / Log in', email: 'Email', password: 'Password (8+ characters to sign up)', login: 'Log in', register: 'Sign up',
    keysTitle: 'API keys', logout: 'Log out', keyName: 'Key name', createKey: 'Create key',
    keyOnce: 'This key is shown only now. Copy it somewhere safe.', copy: 'Copy', copied: 'Copied.',
    name: 'Name', prefix: 'Prefix', lastUsed: 'Last used', actions: 'Actions', revoke: 'Revoke', never: 'never',
    catalogTitle: 'API catalogue and remaining calls', category: 'Category', remaining: 'Remaining', renews: 'Renews',
    subscribe: 'Subscribe', subscribed: 'Subscribed', notSubscribed: 'Subscription needed',
    feedbackTitle: 'Questions whose chatbot answer got 👎', feedbackHint: 'Marked 👎 in Slack or Discord. Add the missing knowledge, then remove them.', noFeedback: 'None yet.', handled: 'Done',
    listsTitle: 'Harmful-URL list status', entries: 'Entries', fetchedAt: 'Fetched at', lastError: 'Last error', none: 'none',
    notFetched: 'not fetched yet', noFeeds: 'No feed has been downloaded yet.',
    guardTitle: 'Harmful links found by the link guard', guardWhen: 'When', guardWhere: 'Channel', guardHost: 'Host', guardAction: 'Action',
    guardNote: 'Turn it on with /guard on in a Slack or Discord channel (kept 90 days; message texts are never stored).',
    guardNone: 'No harmful link found yet.',
    guardActions: { warned: 'warned', hidden: 'hidden', warned_not_hidden: 'warned (could not hide)', not_warned: 'warning failed' },
    listsSummary: (n) => `${n.toLocaleString('en-US')} entries in use for detection (team lists included)`,
    harm: { spam: 'spam', gambling: 'gambling', adult: 'adult', phishing: 'phishing', malware: 'malware', clean: 'top sites (training)' },
    tryTitle: 'Try it', apiKey: 'API key', operation: 'Operation', body: 'Request body (JSON)', send: 'Send',
    file: 'Image or PDF of an ID card or business registration',
    fileNote: 'The file is turned into base64 in your browser and sent in the request. The server never stores images.',
    filePlaceholder: (name) => `(the content of ${name} goes here)`, needFile: 'Choose an image or PDF file.',
    sending: 'Sending…',
    openLink: 'Open the short link', registered: 'Signed up and logged in.', loggedIn: 'Logged in.',
    keyCreated: 'New API key created.', keyRevoked: 'API key revoked.', subscribedTo: 'Subscribed: ',
    badJson: 'The request body is not valid JSON.', needKey: 'Enter an API key.', network: 'Could not reach the server.',
    other: '한국어',
  },
};

const state = {
  lang: localStorage.getItem('lang') === 'en' ? 'en' : 'ko',
  token: sessionStorage.getItem('token'),
  catalog: [],
  monthlyQuota: undefined,
  examples: {},
  // The chosen ID image as base64: kept in memory for the next request only, never stored.
  file: undefined,
};
const $ = (id) => document.getElementById(id);
const t = (key) => TEXT[state.lang][key] ?? key;

function say(message) {
  $('status').textContent = message;
}

async function call(method, path, body, headers = {}) {
  try {
    const res = await fetch(path, {
      method,
      headers: { 'accept-language': state.lang, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let json;
    try { json = JSON.parse(text); } catch { json = text; }
    return { status: res.status, json };
  } catch {
    return { status: 0, json: { error: t('network') } };
  }
}

const withToken = () => ({ authorization: `Bearer ${state.token}` });

const apiName = (api) => (state.lang === 'en' ? api.name_en : api.name);

function applyLanguage() {
  document.documentElement.lang = state.lang;
  for (const node of document.querySelectorAll('[data-i18n]')) node.textContent = t(node.dataset.i18n);
  $('lang').textContent = t('other');
  $('lang').lang = state.lang === 'ko' ? 'en' : 'ko';
  renderIntro();
  renderTryOptions();
  if (!$('account').hidden) void refreshAccount();
}

/** What a logged-out visitor sees: each API with what it does, the free quota, an example call. */
function renderIntro() {
  if (state.monthlyQuota !== undefined) $('quota-note').textContent = t('quota')(state.monthlyQuota);
  const list = $('api-list');
  list.replaceChildren();
  for (const api of state.catalog) {
    const item = document.createElement('li');
    item.id = `intro-${api.id}`;
    const title = document.createElement('strong');
    title.textContent = apiName(api);
    const path = document.createElement('code');
    path.textContent = `POST ${api.path}`;
    const about = document.createElement('p');
    about.textContent = state.lang === 'en' ? api.description_en : api.description;
    item.append(title, ' ', path, about);
    const notes = [];
    if (api.requires_subscription) notes.push(t('needsSubscription'));
    if (api.available === false) notes.push(`${t('unavailable')}: ${state.lang === 'en' ? api.unavailable_reason_en : api.unavailable_reason}`);
    if (notes.length > 0) {
      const note = document.createElement('p');
      note.className = api.available === false ? 'badge off' : 'badge';
      note.textContent = notes.join(' · ');
      item.append(note);
    }
    list.append(item);
  }
  const example = state.examples['url-shortener'] ?? {};
  $('example-request').textContent =
    `curl -s -X POST ${location.origin}/api/v1/url/shorten \\\n  -H 'X-API-Key: aik_…' -H 'Content-Type: application/json' \\\n  -d '${JSON.stringify(example.request ?? {})}'`;
  $('example-response').textContent = JSON.stringify(example.response ?? {}, null, 2);
}

async function authenticate(register) {
  const credentials = { email: $('email').value, password: $('password').value };
  if (register) {
    const created = await call('POST', '/api/v1/auth/register', credentials);
    if (created.status !== 201) return say(created.json.error);
  }
  const login = await call('POST', '/api/v1/auth/login', credentials);
  if (login.status !== 200) return say(login.json.error);
  state.token = login.json.token;
  sessionStorage.setItem('token', state.token);
  say(t(register ? 'registered' : 'loggedIn'));
  await showAccount();
}

async function showAccount() {
  $('auth').hidden = true;
  $('intro').hidden = true;
  $('account').hidden = false;
  await refreshAccount();
}

function cell(row, text, label) {
  const td = row.insertCell();
  td.textContent = text;
  if (label) td.dataset.label = label;
  return td;
}

async function refreshAccount() {
  const [keys, usage] = await Promise.all([call('GET', '/api/v1/keys', undefined, withToken()), call('GET', '/api/v1/usage', undefined, withToken())]);
  if (keys.status === 401) return logout();
  void refreshLists();
  void refreshIncidents();
  void refreshFeedback();
  const keyRows = $('keys').tBodies[0];
  keyRows.replaceChildren();
  for (const key of keys.json.keys ?? []) {
    const row = keyRows.insertRow();
    cell(row, key.name, t('name'));
    cell(row, `${key.prefix}…`, t('prefix'));
    cell(row, key.last_used_at ? new Date(key.last_used_at).toLocaleString(state.lang) : t('never'), t('lastUsed'));
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'secondary';
    button.textContent = t('revoke');
    button.setAttribute('aria-label', `${t('revoke')}: ${key.name}`);
    button.onclick = async () => {
      await call('DELETE', `/api/v1/keys/${key.id}`, undefined, withToken());
      say(t('keyRevoked'));
      await refreshAccount();
    };
    row.insertCell().append(button);
  }
  const catalogRows = $('catalog').tBodies[0];
  catalogRows.replaceChildren();
  for (const api of state.catalog) {
    const use = (usage.json.usage ?? []).find((row) => row.api === api.id) ?? {};
    const row = catalogRows.insertRow();
    row.id = `api-${api.id}`;
    cell(row, apiName(api), 'API');
    cell(row, state.lang === 'en' ? api.category_en : api.category, t('category'));
    cell(row, use.subscribed ? String(use.remaining) : t('notSubscribed'), t('remaining'));
    cell(row, use.renews_at ? new Date(use.renews_at).toLocaleDateString(state.lang) : '—', t('renews'));
    const action = row.insertCell();
    if (use.subscribed) {
      action.textContent = t('subscribed');
    } else {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = t('subscribe');
      button.setAttribute('aria-label', `${t('subscribe')}: ${apiName(api)}`);
      button.onclick = async () => {
        const res = await call('POST', '/api/v1/subscriptions', { api: api.id }, withToken());
        say(res.status === 201 ? t('subscribedTo') + apiName(api) : res.json.error);
        await refreshAccount();
      };
      action.append(button);
    }
  }
}

/** Each harmful-URL feed: name, category, entries, when it was fetched and its last error. */
async function refreshLists() {
  const res = await call('GET', '/api/v1/url/lists', undefined, withToken());
  if (res.status !== 200) return;
  const rows = $('url-lists').tBodies[0];
  rows.replaceChildren();
  $('lists-summary').textContent = t('listsSummary')(res.json.loaded_entries ?? 0);
  const lists = res.json.lists ?? [];
  if (lists.length === 0) {
    const cellNode = rows.insertRow().insertCell();
    cellNode.colSpan = 5;
    cellNode.textContent = t('noFeeds');
  }
  for (const feed of lists) {
    const row = rows.insertRow();
    row.id = `feed-${feed.name}`;
    cell(row, feed.name, t('name'));
    cell(row, t('harm')[feed.category] ?? feed.category, t('category'));
    cell(row, Number(feed.entries).toLocaleString(state.lang), t('entries'));
    cell(row, feed.fetched_at ? new Date(feed.fetched_at).toLocaleString(state.lang) : t('notFetched'), t('fetchedAt'));
    const error = cell(row, feed.last_error ?? t('none'), t('lastError'));
    if (feed.last_error) error.className = 'error';
  }
}

/** The link guard's incidents in the account's linked workspaces (hosts written so they are not links). */
async function refreshIncidents() {
  const res = await call('GET', '/api/v1/guard/incidents', undefined, withToken());
  if (res.status !== 200) return;
  const rows = $('guard-incidents').tBodies[0];
  rows.replaceChildren();
  const incidents = res.json.incidents ?? [];
  if (incidents.length === 0) {
    const cellNode = rows.insertRow().insertCell();
    cellNode.colSpan = 5;
    cellNode.textContent = t('guardNone');
  }
  for (const incident of incidents) {
    const row = rows.insertRow();
    cell(row, new Date(incident.created_at).toLocaleString(state.lang), t('guardWhen'));
    cell(row, `${incident.platform} ${incident.channel_id}`, t('guardWhere'));
    cell(row, incident.host.replaceAll('.', '[.]'), t('guardHost'));
    cell(row, t('harm')[incident.category] ?? incident.category, t('category'));
    cell(row, t('guardActions')[incident.action] ?? incident.action, t('guardAction'));
  }
}

/** Questions marked 👎 in the bots (the question and where, nothing else): someone adds the missing knowledge. */
async function refreshFeedback() {
  const res = await call('GET', '/api/v1/chatbot/feedback', undefined, withToken());
  if (res.status !== 200) return;
  const list = $('kb-feedback');
  list.replaceChildren();
  const items = res.json.feedback ?? [];
  if (items.length === 0) {
    const empty = document.createElement('li');
    empty.textContent = t('noFeedback');
    list.append(empty);
  }
  for (const item of items) {
    const li = document.createElement('li');
    li.textContent = `${item.question} (${new Date(item.created_at).toLocaleString(state.lang)}${item.scope ? `, ${item.scope}` : ''}) `;
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'secondary';
    button.textContent = t('handled');
    button.onclick = async () => {
      await call('DELETE', `/api/v1/chatbot/feedback/${item.id}`, undefined, withToken());
      await refreshFeedback();
    };
    li.append(button);
    list.append(li);
  }
}

function logout() {
  state.token = null;
  sessionStorage.removeItem('token');
  $('account').hidden = true;
  $('auth').hidden = false;
  $('intro').hidden = false;
}

async function createKey(event) {
  event.preventDefault();
  const res = await call('POST', '/api/v1/keys', { name: $('key-name').value || undefined }, withToken());
  if (res.status !== 201) return say(res.json.error);
  $('new-key-value').textContent = res.json.api_key;
  $('new-key').hidden = false;
  $('try-key').value = res.json.api_key;
  say(t('keyCreated'));
  await refreshAccount();
}

async function loadCatalog() {
  const [catalog, openapi] = await Promise.all([call('GET', '/api/v1/catalog'), call('GET', '/openapi.json')]);
  state.catalog = catalog.json.apis ?? [];
  state.monthlyQuota = catalog.json.monthly_quota;
  for (const api of state.catalog) {
    const operation = openapi.json.paths?.[api.path]?.post;
    const content = operation?.requestBody?.content?.['application/json'];
    const answer = operation?.responses?.['200']?.content?.['application/json'];
    state.examples[api.id] = { request: content?.example ?? {}, response: answer?.example ?? {} };
  }
}

function renderTryOptions() {
  const select = $('try-api');
  const chosen = select.value || 'url-shortener';
  select.replaceChildren();
  for (const api of state.catalog) {
    const option = document.createElement('option');
    option.value = api.id;
    option.textContent = `${apiName(api)} — POST ${api.path}`;
    select.append(option);
  }
  select.value = chosen;
}

function fillExample() {
  const id = $('try-api').value;
  const isOcr = id === 'ocr-idcard';
  $('try-file-field').hidden = !isOcr;
  const request = { ...(state.examples[id]?.request ?? {}) };
  if (isOcr) request.base64_image = state.file ? t('filePlaceholder')(state.file.name) : '';
  $('try-body').value = JSON.stringify(request, null, 2);
}

/** Reads the chosen file in the browser; the base64 is put into the request only when it is sent. */
function pickFile() {
  const file = $('try-file').files?.[0];
  if (!file) return;
  const reader = new FileReader();
  reader.onload = () => {
    state.file = { name: file.name, base64: String(reader.result) };
    fillExample();
  };
  reader.readAsDataURL(file);
}

function clearResult(message) {
  $('result-status').textContent = message;
  $('result-body').textContent = '';
  $('result-link').hidden = true;
}

async function send(event) {
  event.preventDefault();
  const api = state.catalog.find((entry) => entry.id === $('try-api').value);
  const key = $('try-key').value.trim();
  clearResult('');
  if (!key) return say(t('needKey'));
  let body;
  try { body = JSON.parse($('try-body').value); } catch { return say(t('badJson')); }
  if (api.id === 'ocr-idcard') {
    if (!state.file) return say(t('needFile'));
    body.base64_image = state.file.base64;
  }
  clearResult(t('sending'));
  const res = await call('POST', api.path, body, { 'x-api-key': key });
  $('result-status').textContent = `HTTP ${res.status}`;
  $('result-body').textContent = JSON.stringify(res.json, null, 2);
  const shortUrl = res.json && res.json.short_url;
  $('result-link').hidden = !shortUrl;
  if (shortUrl) $('short-link').href = shortUrl;
  if (state.token) await refreshAccount();
}

document.addEventListener('DOMContentLoaded', async () => {
  $('auth-form').addEventListener('submit', (event) => { event.preventDefault(); void authenticate(false); });
  $('register').addEventListener('click', () => { if ($('auth-form').reportValidity()) void authenticate(true); });
  $('logout').addEventListener('click', logout);
  $('key-form').addEventListener('submit', createKey);
  $('copy-key').addEventListener('click', async () => {
    await navigator.clipboard?.writeText($('new-key-value').textContent).catch(() => {});
    say(t('copied'));
  });
  $('try-api').addEventListener('change', () => { clearResult(''); fillExample(); });
  $('try-file').addEventListener('change', pickFile);
  $('try-form').addEventListener('submit', send);
  $('lang').addEventListener('click', () => {
    state.lang = state.lang === 'ko' ? 'en' : 'ko';
    localStorage.setItem('lang', state.lang);
    applyLanguage();
  });
  await loadCatalog();
  applyLanguage();
  fillExample();
  if (state.token) await showAccount();
});
