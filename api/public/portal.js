// The developer portal: sign-up, keys (name, expiry, rotation), usage per API and day, subscriptions
// and a "try it" panel, over the public API; operator detail only for ADMIN_EMAILS accounts.
// No framework: a handful of fetch calls and DOM updates. The login token lives in sessionStorage
// (gone with the tab); a new API key is shown once and never stored.
'use strict';

const TEXT = {
  ko: {
    skip: '본문으로 건너뛰기', docs: 'API 문서', loginLink: '로그인 / 가입', lead: '한국 팀을 위한 여덟 가지 AI API와 스미싱 검사. 가입하고 API 키를 받으면 바로 호출할 수 있습니다.',
    introTitle: '제공하는 API', exampleTitle: '호출 예시',
    exampleLead: 'API 키를 X-API-Key 헤더에 넣어 JSON으로 요청합니다. 긴 URL을 줄여 보면:', exampleAnswer: '응답:',
    docsLink: '모든 API의 요청·응답 형식 보기 (API 문서)', terms: '이용약관', privacy: '개인정보 처리방침',
    agree: '가입하면 다음에 동의하는 것으로 봅니다:',
    quota: (n) => `가입하면 API마다 한 달에 ${num(n)}회까지 무료로 호출할 수 있고, 매달 1일 0시(한국 시간)에 다시 채워집니다. 유해 URL 탐지와 택배 조회는 가입 뒤 구독 버튼을 한 번 눌러 켭니다.`,
    needsSubscription: '구독 후 사용', unavailable: '이 서버에서는 지금 쓸 수 없습니다',
    authTitle: '가입 / 로그인', email: '이메일', password: '비밀번호 (가입할 때는 8자 이상)', login: '로그인', register: '가입하기',
    keysTitle: 'API 키', logout: '로그아웃', keyName: '키 이름', keyExpiry: '만료일 (선택)', createKey: '새 키 만들기',
    keyOnce: '이 키는 지금 한 번만 보입니다. 안전한 곳에 복사해 두세요.', copy: '복사', copied: '복사했습니다.',
    rotatedNote: (name, until) => `'${name}' 키를 교체했습니다. 새 키는 지금 한 번만 보입니다. 이전 키는 ${until}까지 쓸 수 있으니 그 전에 새 키로 바꿔 넣으세요.`,
    name: '이름', prefix: '접두어', expires: '만료', lastUsed: '마지막 사용', actions: '작업', revoke: '폐기', never: '없음', noExpiry: '없음',
    rotate: '교체', edit: '이름·만료일 바꾸기', save: '저장', cancel: '취소', keyUpdated: 'API 키를 바꿨습니다.',
    noKeys: '아직 API 키가 없습니다. 위에서 키 이름을 적고(선택) ‘새 키 만들기’를 누르면 첫 키가 만들어집니다.',
    errorsTitle: '키별 최근 오류', errorsNote: '거부된 호출의 상태, 시각, 오류 코드만 보관합니다 (요청·응답 본문은 저장하지 않습니다).',
    key: '키', status: '상태', errorCode: '오류 코드', time: '시각', noErrors: '최근에 거부된 호출이 없습니다.', removedKey: '(폐기되었거나 만료된 키)',
    usageTitle: 'API별 사용량', usagePeriod: (from, to) => `이번 기간 ${from} ~ ${to}의 날짜별 호출 수입니다.`,
    remainingOf: (left, total) => `남은 호출 ${num(left)} / ${num(total)}회`, renewsOn: (date) => `${date}에 다시 채워집니다`,
    callsTotal: (n) => `이번 기간 호출 ${num(n)}회`, callsOn: (day, n) => `${day}: ${num(n)}회`, noCalls: '이번 기간에는 아직 호출이 없습니다.',
    chartLabel: (api, n, max) => `${api}의 날짜별 호출 수: 이번 기간 ${num(n)}회, 하루 최대 ${num(max)}회`,
    category: '분류', subscribe: '구독', notSubscribed: '구독하면 쓸 수 있습니다', subscribedTo: '구독했습니다: ',
    operatorTitle: '운영자 정보 (ADMIN_EMAILS 계정에만 보임)', llm: 'LLM', tracker: '택배 조회 서버', chat: '채팅 봇', database: '데이터베이스',
    on: '켜짐', off: '꺼짐', hosted: '공식 호스팅', selfHosted: '자체 호스팅', withCredentials: '자격 증명 있음',
    trackerNoCredentials: '자격 증명 없음: 모든 조회가 실패합니다 (DELIVERY_TRACKER_CLIENT_ID/SECRET을 설정하세요)',
    llmOff: 'OPENAI_API_KEY나 OPENAI_BASE_URL을 설정하면 켜집니다',
    listsTitle: '유해 URL 목록 상태', entries: '항목 수', fetchedAt: '받은 시각', lastError: '마지막 오류', none: '없음',
    notFetched: '아직 받지 못함', noFeeds: '받아 둔 피드가 아직 없습니다.',
    listsSummary: (n) => `지금 탐지에 쓰는 항목 ${num(n)}개 (팀 목록 포함)`,
    feedbackTitle: '챗봇 답변에 👎 받은 질문', feedbackHint: 'Slack·Discord에서 👎를 받은 질문입니다. 빠진 지식을 추가한 뒤 지우세요.', noFeedback: '아직 없습니다.', handled: '처리함',
    guardTitle: '링크 가드가 찾은 유해 링크', guardWhen: '시각', guardWhere: '채널', guardHost: '호스트', guardAction: '조치',
    guardNote: 'Slack·Discord 채널에서 /guard on을 켜면 여기에 기록됩니다 (90일 보관, 메시지 내용은 저장하지 않음).',
    guardNone: '아직 찾은 유해 링크가 없습니다.',
    guardActions: { warned: '경고', hidden: '숨김', warned_not_hidden: '경고 (숨기지 못함)', not_warned: '경고 실패' },
    harm: { spam: '스팸', gambling: '도박', adult: '성인', phishing: '피싱', malware: '악성코드', clean: '인기 사이트(학습용)' },
    scanName: '스미싱 검사 (받은 문자)',
    scanAbout: '“이거 스미싱이야?” 받은 문자를 그대로 붙여 넣거나 캡처 화면을 보내면 링크와 문구를 함께 보고 스미싱인지 알려 줍니다. 유해 URL 탐지를 구독하면 쓸 수 있습니다.',
    verdictScam: '스미싱으로 보입니다', verdictClean: '스미싱 징후를 찾지 못했습니다', score: '점수', advice: '이렇게 하세요:',
    tryTitle: '직접 호출해 보기', apiKey: 'API 키', operation: '기능', body: '요청 본문 (JSON)', send: '보내기',
    file: '신분증·사업자등록증 이미지 또는 PDF',
    fileNote: '파일은 브라우저에서 base64로 바꿔 요청에 넣습니다. 서버는 이미지를 저장하지 않습니다.',
    filePlaceholder: (name) => `(선택한 파일 ${name}의 내용이 들어갑니다)`, needFile: '이미지나 PDF 파일을 고르세요.',
    sending: '보내는 중…',
    openLink: '짧은 링크 열기', registered: '가입했습니다. 로그인했어요.', loggedIn: '로그인했습니다.',
    keyCreated: '새 API 키를 만들었습니다.', keyRotated: 'API 키를 교체했습니다.', keyRevoked: 'API 키를 폐기했습니다.',
    badJson: '요청 본문이 올바른 JSON이 아닙니다.', needKey: 'API 키를 입력하세요. 위의 ‘새 키 만들기’로 만든 키가 여기에 들어갑니다.', network: '서버에 연결하지 못했습니다.',
    other: 'English',
  },
  en: {
    skip: 'Skip to content', docs: 'API docs', loginLink: 'Log in / Sign up', lead: 'Eight AI APIs for Korean teams, and a smishing check. Sign up, get an API key and call them right away.',
    introTitle: 'The APIs', exampleTitle: 'An example call',
    exampleLead: 'Send JSON with your API key in the X-API-Key header. Shortening a long URL:', exampleAnswer: 'The answer:',
    docsLink: 'Request and answer formats of every API (API docs)', terms: 'Terms of service', privacy: 'Privacy notice',
    agree: 'By signing up you agree to the',
    quota: (n) => `Each account may call every API ${count(n, 'time', 'times')} a month for free; counters refill at 00:00 Korea time on the 1st. Harmful URL detection and parcel tracking are switched on with one click on Subscribe after sign-up.`,
    needsSubscription: 'subscribe first', unavailable: 'Not available on this server right now',
    authTitle: 'Sign up / Log in', email: 'Email', password: 'Password (8+ characters to sign up)', login: 'Log in', register: 'Sign up',
    keysTitle: 'API keys', logout: 'Log out', keyName: 'Key name', keyExpiry: 'Expires on (optional)', createKey: 'Create key',
    keyOnce: 'This key is shown only now. Copy it somewhere safe.', copy: 'Copy', copied: 'Copied.',
    rotatedNote: (name, until) => `Key '${name}' was rotated. The new key is shown only now. The old key keeps working until ${until}: switch your clients over before then.`,
    name: 'Name', prefix: 'Prefix', expires: 'Expires', lastUsed: 'Last used', actions: 'Actions', revoke: 'Revoke', never: 'never', noExpiry: 'never',
    rotate: 'Rotate', edit: 'Rename / expiry', save: 'Save', cancel: 'Cancel', keyUpdated: 'API key updated.',
    noKeys: 'No API key yet. Give it a name above (optional) and press “Create key” to make your first one.',
    errorsTitle: 'Recent errors per key', errorsNote: 'Only the status, time and error code of refused calls are kept (never request or answer bodies).',
    key: 'Key', status: 'Status', errorCode: 'Error code', time: 'Time', noErrors: 'No refused calls recently.', removedKey: '(revoked or expired key)',
    usageTitle: 'Usage per API', usagePeriod: (from, to) => `Calls per day in this period, ${from} to ${to}.`,
    remainingOf: (left, total) => `${num(left)} of ${count(total, 'call', 'calls')} left`, renewsOn: (date) => `refills on ${date}`,
    callsTotal: (n) => `${count(n, 'call', 'calls')} this period`, callsOn: (day, n) => `${day}: ${count(n, 'call', 'calls')}`, noCalls: 'No calls yet in this period.',
    chartLabel: (api, n, max) => `Calls per day of ${api}: ${num(n)} this period, at most ${num(max)} a day`,
    category: 'Category', subscribe: 'Subscribe', notSubscribed: 'Subscribe to use it', subscribedTo: 'Subscribed: ',
    operatorTitle: 'Operator view (ADMIN_EMAILS accounts only)', llm: 'LLM', tracker: 'Parcel tracker', chat: 'Chat bots', database: 'Database',
    on: 'on', off: 'off', hosted: 'hosted', selfHosted: 'self-hosted', withCredentials: 'with credentials',
    trackerNoCredentials: 'no credentials: every lookup fails (set DELIVERY_TRACKER_CLIENT_ID/SECRET)',
    llmOff: 'set OPENAI_API_KEY or OPENAI_BASE_URL to switch it on',
    listsTitle: 'Harmful-URL list status', entries: 'Entries', fetchedAt: 'Fetched at', lastError: 'Last error', none: 'none',
    notFetched: 'not fetched yet', noFeeds: 'No feed has been downloaded yet.',
    listsSummary: (n) => `${count(n, 'entry', 'entries')} in use for detection (team lists included)`,
    feedbackTitle: 'Questions whose chatbot answer got 👎', feedbackHint: 'Marked 👎 in Slack or Discord. Add the missing knowledge, then remove them.', noFeedback: 'None yet.', handled: 'Done',
    guardTitle: 'Harmful links found by the link guard', guardWhen: 'When', guardWhere: 'Channel', guardHost: 'Host', guardAction: 'Action',
    guardNote: 'Turn it on with /guard on in a Slack or Discord channel (kept 90 days; message texts are never stored).',
    guardNone: 'No harmful link found yet.',
    guardActions: { warned: 'warned', hidden: 'hidden', warned_not_hidden: 'warned (could not hide)', not_warned: 'warning failed' },
    harm: { spam: 'spam', gambling: 'gambling', adult: 'adult', phishing: 'phishing', malware: 'malware', clean: 'top sites (training)' },
    scanName: 'Smishing check (a received text)',
    scanAbout: '“Is this smishing?” Paste a text message as you received it, or send a screenshot: its links and its wording are checked together. Comes with the harmful URL detection subscription.',
    verdictScam: 'Looks like smishing', verdictClean: 'No sign of smishing found', score: 'score', advice: 'What to do:',
    tryTitle: 'Try it', apiKey: 'API key', operation: 'Operation', body: 'Request body (JSON)', send: 'Send',
    file: 'Image or PDF of an ID card or business registration',
    fileNote: 'The file is turned into base64 in your browser and sent in the request. The server never stores images.',
    filePlaceholder: (name) => `(the content of ${name} goes here)`, needFile: 'Choose an image or PDF file.',
    sending: 'Sending…',
    openLink: 'Open the short link', registered: 'Signed up and logged in.', loggedIn: 'Logged in.',
    keyCreated: 'New API key created.', keyRotated: 'API key rotated.', keyRevoked: 'API key revoked.',
    badJson: 'The request body is not valid JSON.', needKey: 'Enter an API key: the one made with “Create key” above goes here.', network: 'Could not reach the server.',
    other: '한국어',
  },
};

/** Numbers with the reader's thousands separators: 12,345. */
function num(n) {
  return Number(n).toLocaleString(state.lang === 'en' ? 'en-US' : 'ko-KR');
}

/** An English count with its noun in the right form: 1 call, 2 calls, 0 calls. */
function count(n, one, many) {
  return `${num(n)} ${Number(n) === 1 ? one : many}`;
}

const state = {
  lang: localStorage.getItem('lang') === 'en' ? 'en' : 'ko',
  token: sessionStorage.getItem('token'),
  user: undefined,
  // The team signed in to ({id, email}: its founding owner's e-mail).
  team: undefined,
  catalog: [],
  monthlyQuota: undefined,
  examples: {},
  // The chosen ID image as base64: kept in memory for the next request only, never stored.
  file: undefined,
  // The key whose name/expiry form is open.
  editing: undefined,
};
const $ = (id) => document.getElementById(id);
const t = (key) => TEXT[state.lang][key] ?? key;
const locale = () => (state.lang === 'en' ? 'en-US' : 'ko-KR');
const dateText = (iso) => new Date(iso).toLocaleDateString(locale(), { timeZone: 'Asia/Seoul', year: 'numeric', month: 'short', day: 'numeric' });
const timeText = (iso) => new Date(iso).toLocaleString(locale(), { timeZone: 'Asia/Seoul', dateStyle: 'medium', timeStyle: 'short' });

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

/**
 * "이거 스미싱이야?": the message check charges harmful-url-detection under its own path, so it is
 * no catalogue entry; the landing page and "try it" offer it beside the eight, with a Korean message.
 */
const MESSAGE_CHECK = {
  id: 'url-scan',
  path: '/api/v1/url/scan',
  charges: 'harmful-url-detection',
  example: { text: '[CJ대한통운] 고객님의 택배가 주소 불일치로 반송 예정입니다. 주소 확인: http://cj-track.example/a8Kq' },
};

/** The message check as an entry of the list, with the subscription and availability of the API it charges. */
function messageCheck() {
  const charged = state.catalog.find((api) => api.id === MESSAGE_CHECK.charges);
  if (!charged) return [];
  const names = { name: TEXT.ko.scanName, name_en: TEXT.en.scanName, description: TEXT.ko.scanAbout, description_en: TEXT.en.scanAbout };
  return [{ ...charged, ...MESSAGE_CHECK, ...names }];
}

const tryApis = () => [...state.catalog, ...messageCheck()];
const apiById = (id) => tryApis().find((api) => api.id === id);

/** "Not available on this server right now (no AI model is connected)": one phrase, said once. */
function unavailableText(api) {
  const reason = state.lang === 'en' ? api.unavailable_reason_en : api.unavailable_reason;
  return reason ? `${t('unavailable')} (${reason})` : t('unavailable');
}

function applyLanguage() {
  document.documentElement.lang = state.lang;
  for (const node of document.querySelectorAll('[data-i18n]')) node.textContent = t(node.dataset.i18n);
  $('lang').textContent = t('other');
  $('lang').lang = state.lang === 'ko' ? 'en' : 'ko';
  // A message in the other language would stay behind: the switch clears them.
  say('');
  tryError('');
  renderIntro();
  renderTryOptions();
  window.portalTeam.label();
  if (!$('account').hidden) void refreshAccount();
}

/** What a logged-out visitor sees: each API with what it does, the free quota, an example call. */
function renderIntro() {
  if (state.monthlyQuota !== undefined) $('quota-note').textContent = t('quota')(state.monthlyQuota);
  const list = $('api-list');
  list.replaceChildren();
  for (const api of tryApis()) {
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
    if (api.available === false) notes.push(unavailableText(api));
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
  const me = await call('GET', '/api/v1/account', undefined, withToken());
  if (me.status !== 200) return logout();
  state.user = me.json.user;
  state.team = me.json.team;
  $('auth').hidden = true;
  $('intro').hidden = true;
  $('account').hidden = false;
  $('login-link').hidden = true;
  $('who').hidden = false;
  $('who').textContent = state.user.email;
  await refreshAccount();
}

function cell(row, text, label) {
  const td = row.insertCell();
  td.textContent = text;
  if (label) td.dataset.label = label;
  return td;
}

function button(text, label, onclick, secondary = true) {
  const node = document.createElement('button');
  node.type = 'button';
  if (secondary) node.className = 'secondary';
  node.textContent = text;
  node.setAttribute('aria-label', label);
  node.onclick = onclick;
  return node;
}

/** One message in one row spanning the table: the empty states. */
function emptyRow(table, columns, text, id) {
  const td = table.tBodies[0].insertRow().insertCell();
  td.colSpan = columns;
  td.className = 'empty';
  if (id) td.id = id;
  td.textContent = text;
}

async function refreshAccount() {
  const [keys, usage, errors] = await Promise.all([
    call('GET', '/api/v1/keys', undefined, withToken()),
    call('GET', '/api/v1/usage', undefined, withToken()),
    call('GET', '/api/v1/keys/errors', undefined, withToken()),
  ]);
  if (keys.status === 401) return logout();
  void refreshIncidents();
  void refreshFeedback();
  void window.portalTeam.refresh();
  renderKeys(keys.json.keys ?? []);
  renderErrors(errors.json.errors ?? [], keys.json.keys ?? []);
  renderUsage(usage.json);
  $('operator').hidden = !state.user?.operator;
  if (state.user?.operator) void refreshOperator();
}

function renderKeys(keys) {
  const table = $('keys');
  table.tBodies[0].replaceChildren();
  if (keys.length === 0) return emptyRow(table, 5, t('noKeys'), 'no-keys');
  for (const key of keys) {
    const row = table.tBodies[0].insertRow();
    row.id = `key-${key.id}`;
    cell(row, key.name, t('name'));
    cell(row, `${key.prefix}…`, t('prefix'));
    cell(row, key.expires_at ? timeText(key.expires_at) : t('noExpiry'), t('expires'));
    cell(row, key.last_used_at ? timeText(key.last_used_at) : t('never'), t('lastUsed'));
    const actions = row.insertCell();
    actions.className = 'actions';
    // A viewer sees the keys but may not change them (the server refuses it anyway).
    if (window.portalTeam.can('keys')) actions.append(
      button(t('edit'), `${t('edit')}: ${key.name}`, () => {
        state.editing = state.editing === key.id ? undefined : key.id;
        renderKeys(keys);
      }),
      button(t('rotate'), `${t('rotate')}: ${key.name}`, () => rotateKey(key)),
      button(t('revoke'), `${t('revoke')}: ${key.name}`, async () => {
        const res = await call('DELETE', `/api/v1/keys/${key.id}`, undefined, withToken());
        say(res.status === 200 ? t('keyRevoked') : res.json.error);
        await refreshAccount();
      }),
    );
    if (state.editing === key.id) {
      const td = table.tBodies[0].insertRow().insertCell();
      td.colSpan = 5;
      td.append(editForm(key));
    }
  }
}

/** The name and expiry of one key, changed in place. */
function editForm(key) {
  const form = document.createElement('form');
  form.className = 'row edit';
  form.id = `edit-${key.id}`;
  const name = Object.assign(document.createElement('input'), { value: key.name, maxLength: 100, id: `edit-name-${key.id}` });
  const expiry = Object.assign(document.createElement('input'), { type: 'date', id: `edit-expiry-${key.id}` });
  if (key.expires_at) expiry.value = new Date(new Date(key.expires_at).getTime() + 9 * 3600_000).toISOString().slice(0, 10);
  const label = (input, text) => {
    const node = document.createElement('label');
    node.className = 'inline';
    node.htmlFor = input.id;
    node.append(text, input);
    return node;
  };
  const save = Object.assign(document.createElement('button'), { type: 'submit', textContent: t('save') });
  form.append(label(name, t('keyName')), label(expiry, t('keyExpiry')), save, button(t('cancel'), t('cancel'), () => {
    state.editing = undefined;
    void refreshAccount();
  }));
  form.onsubmit = async (event) => {
    event.preventDefault();
    const res = await call('PATCH', `/api/v1/keys/${key.id}`, { name: name.value, expires_at: expiry.value || null }, withToken());
    if (res.status !== 200) return say(res.json.error);
    state.editing = undefined;
    say(t('keyUpdated'));
    await refreshAccount();
  };
  return form;
}

async function rotateKey(key) {
  const res = await call('POST', `/api/v1/keys/${key.id}/rotate`, { grace_hours: 24 }, withToken());
  if (res.status !== 201) return say(res.json.error);
  showNewKey(res.json.api_key, t('rotatedNote')(key.name, timeText(res.json.previous.expires_at)));
  say(t('keyRotated'));
  await refreshAccount();
}

function showNewKey(apiKey, note) {
  $('new-key-value').textContent = apiKey;
  $('new-key-note').textContent = note;
  $('new-key').hidden = false;
  $('try-key').value = apiKey;
}

/** The last refused calls of each key: status, time and error code (the server keeps nothing more). */
function renderErrors(errors, keys) {
  const table = $('key-errors');
  table.tBodies[0].replaceChildren();
  if (errors.length === 0) return emptyRow(table, 5, t('noErrors'));
  for (const error of errors) {
    const row = table.tBodies[0].insertRow();
    const key = keys.find((candidate) => candidate.id === error.key_id);
    cell(row, key ? `${key.name} (${key.prefix}…)` : t('removedKey'), t('key'));
    const api = error.api ? apiById(error.api) : undefined;
    cell(row, api ? apiName(api) : (error.api ?? '—'), 'API');
    cell(row, String(error.status), t('status'));
    cell(row, error.error_code, t('errorCode')).className = 'code';
    cell(row, timeText(error.at), t('time'));
  }
}

/** Per API: what it is, whether it works here, the remaining quota as a bar, the renewal date and the calls per day. */
function renderUsage(body) {
  const list = $('usage');
  list.replaceChildren();
  const usage = body.usage ?? [];
  const days = daysBetween(body.from, body.to);
  if (body.from) $('usage-period').textContent = t('usagePeriod')(dateText(`${body.from}T12:00:00+09:00`), dateText(`${body.to}T12:00:00+09:00`));
  for (const api of state.catalog) {
    const use = usage.find((row) => row.api === api.id) ?? {};
    const item = document.createElement('li');
    item.id = `api-${api.id}`;
    const head = document.createElement('div');
    head.className = 'row between';
    const title = document.createElement('h3');
    title.textContent = apiName(api);
    const category = document.createElement('span');
    category.className = 'badge';
    category.textContent = state.lang === 'en' ? api.category_en : api.category;
    head.append(title, category);
    item.append(head);
    if (api.available === false) {
      const off = document.createElement('p');
      off.className = 'badge off';
      off.textContent = unavailableText(api);
      item.append(off);
    }
    if (!use.subscribed) {
      const note = document.createElement('p');
      note.className = 'hint';
      note.textContent = t('notSubscribed');
      item.append(note);
      // Subscribing takes the `subscriptions` right (owners and admins).
      if (window.portalTeam.can('subscriptions')) item.append(button(t('subscribe'), `${t('subscribe')}: ${apiName(api)}`, async () => {
        const res = await call('POST', '/api/v1/subscriptions', { api: api.id }, withToken());
        say(res.status === 201 ? t('subscribedTo') + apiName(api) : res.json.error);
        await refreshAccount();
      }, false));
      list.append(item);
      continue;
    }
    const total = use.monthly_quota ?? state.monthlyQuota ?? use.remaining;
    const bar = document.createElement('div');
    bar.className = 'quota';
    bar.setAttribute('role', 'meter');
    bar.setAttribute('aria-valuemin', '0');
    bar.setAttribute('aria-valuemax', String(total));
    bar.setAttribute('aria-valuenow', String(use.remaining));
    bar.setAttribute('aria-label', t('remainingOf')(use.remaining, total));
    const fill = document.createElement('span');
    fill.style.width = `${total > 0 ? Math.max(0, Math.min(100, (use.remaining / total) * 100)) : 0}%`;
    if (total > 0 && use.remaining / total < 0.1) fill.className = 'low';
    bar.append(fill);
    const numbers = document.createElement('p');
    numbers.className = 'numbers';
    numbers.textContent = `${t('remainingOf')(use.remaining, total)} · ${t('renewsOn')(dateText(use.renews_at))}`;
    const calls = new Map((body.daily ?? []).filter((row) => row.api === api.id).map((row) => [row.day, row.calls]));
    item.append(bar, numbers, chart(api, days, calls));
    list.append(item);
  }
}

function daysBetween(from, to) {
  if (!from || !to) return [];
  const days = [];
  for (let day = new Date(`${from}T00:00:00Z`); day <= new Date(`${to}T00:00:00Z`); day = new Date(day.getTime() + 86_400_000))
    days.push(day.toISOString().slice(0, 10));
  return days;
}

const SVG = 'http://www.w3.org/2000/svg';
function svg(name, attributes, text) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Calls per day as bars, drawn here as plain SVG: each bar titled with its day and count, the axis with the largest day. */
function chart(api, days, calls) {
  const figure = document.createElement('figure');
  figure.className = 'chart';
  const totalCalls = [...calls.values()].reduce((sum, n) => sum + n, 0);
  const max = Math.max(0, ...calls.values());
  const caption = document.createElement('figcaption');
  caption.textContent = totalCalls > 0 ? t('callsTotal')(totalCalls) : t('noCalls');
  const width = 300;
  const height = 90;
  const left = 34;
  const bottom = 16;
  const graph = svg('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': t('chartLabel')(apiName(api), totalCalls, max), id: `chart-${api.id}` });
  const plotWidth = width - left - 4;
  const plotHeight = height - bottom - 8;
  const step = days.length > 0 ? plotWidth / days.length : plotWidth;
  graph.append(
    svg('line', { x1: left, y1: 8 + plotHeight, x2: width - 4, y2: 8 + plotHeight, class: 'axis' }),
    svg('text', { x: left - 4, y: 8 + plotHeight, 'text-anchor': 'end', class: 'tick' }, '0'),
  );
  if (max > 0) graph.append(svg('text', { x: left - 4, y: 14, 'text-anchor': 'end', class: 'tick' }, num(max)));
  days.forEach((day, i) => {
    const n = calls.get(day) ?? 0;
    const h = max > 0 ? (n / max) * plotHeight : 0;
    const bar = svg('rect', { x: left + i * step + step * 0.15, y: 8 + plotHeight - h, width: Math.max(1, step * 0.7), height: Math.max(h, n > 0 ? 1 : 0), class: 'bar', 'data-day': day, 'data-calls': n });
    bar.append(svg('title', {}, t('callsOn')(dateText(`${day}T12:00:00+09:00`), n)));
    graph.append(bar);
  });
  if (days.length > 0) {
    const short = (day) => new Date(`${day}T12:00:00+09:00`).toLocaleDateString(locale(), { timeZone: 'Asia/Seoul', month: 'numeric', day: 'numeric' });
    graph.append(
      svg('text', { x: left, y: height - 3, class: 'tick' }, short(days[0])),
      svg('text', { x: width - 4, y: height - 3, 'text-anchor': 'end', class: 'tick' }, short(days[days.length - 1])),
    );
  }
  figure.append(graph, caption);
  return figure;
}

/** Operators (ADMIN_EMAILS) only: what this server has configured, and each harmful-URL feed. */
async function refreshOperator() {
  const [status, lists] = await Promise.all([
    call('GET', '/api/v1/operator/status', undefined, withToken()),
    call('GET', '/api/v1/url/lists', undefined, withToken()),
  ]);
  if (status.status === 200) renderOperatorStatus(status.json);
  if (lists.status === 200) renderLists(lists.json);
}

function renderOperatorStatus(status) {
  const facts = $('operator-status');
  facts.replaceChildren();
  const fact = (name, value) => {
    const dt = document.createElement('dt');
    dt.textContent = name;
    const dd = document.createElement('dd');
    dd.textContent = value;
    facts.append(dt, dd);
  };
  const { llm, tracker, chat } = status;
  fact(t('llm'), llm.on ? `${t('on')}: ${llm.host} · ${llm.model}${llm.vision ? ` · vision ${llm.vision}` : ''}` : `${t('off')}: ${t('llmOff')}`);
  fact(
    t('tracker'),
    tracker.hosted
      ? `${t('hosted')} (${tracker.host}) · ${tracker.credentials ? t('withCredentials') : t('trackerNoCredentials')}`
      : `${t('selfHosted')} (${tracker.host})`,
  );
  fact(t('chat'), `Slack ${chat.slack ? t('on') : t('off')} · Discord ${chat.discord ? t('on') : t('off')}`);
  fact(t('database'), status.database);
}

/** Each harmful-URL feed: name, category, entries, when it was fetched and its last error. */
function renderLists(body) {
  const table = $('url-lists');
  table.tBodies[0].replaceChildren();
  $('lists-summary').textContent = t('listsSummary')(body.loaded_entries ?? 0);
  const lists = body.lists ?? [];
  if (lists.length === 0) emptyRow(table, 5, t('noFeeds'));
  for (const feed of lists) {
    const row = table.tBodies[0].insertRow();
    row.id = `feed-${feed.name}`;
    cell(row, feed.name, t('name'));
    cell(row, t('harm')[feed.category] ?? feed.category, t('category'));
    cell(row, num(feed.entries), t('entries'));
    cell(row, feed.fetched_at ? timeText(feed.fetched_at) : t('notFetched'), t('fetchedAt'));
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
  if (state.token) void call('POST', '/api/v1/auth/logout', undefined, withToken());
  state.token = null;
  state.user = undefined;
  state.team = undefined;
  sessionStorage.removeItem('token');
  window.portalTeam.hide();
  $('account').hidden = true;
  $('auth').hidden = false;
  $('intro').hidden = false;
  $('login-link').hidden = false;
  $('who').hidden = true;
}

async function createKey(event) {
  event.preventDefault();
  const expiry = $('key-expiry').value;
  const res = await call('POST', '/api/v1/keys', { name: $('key-name').value || undefined, ...(expiry ? { expires_at: expiry } : {}) }, withToken());
  if (res.status !== 201) return say(res.json.error);
  showNewKey(res.json.api_key, t('keyOnce'));
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
  state.examples[MESSAGE_CHECK.id] = { request: MESSAGE_CHECK.example };
}

/** The operations to try; those this server cannot serve say so in the list and beside it. */
function renderTryOptions() {
  const select = $('try-api');
  const chosen = select.value || 'url-shortener';
  select.replaceChildren();
  for (const api of tryApis()) {
    const option = document.createElement('option');
    option.value = api.id;
    option.textContent = `${apiName(api)} — POST ${api.path}${api.available === false ? ` (${t('unavailable')})` : ''}`;
    select.append(option);
  }
  select.value = chosen;
  markTryAvailability();
}

function markTryAvailability() {
  const api = apiById($('try-api').value);
  $('try-unavailable').hidden = !api || api.available !== false;
  if (api && api.available === false) $('try-unavailable').textContent = unavailableText(api);
}

function fillExample() {
  const id = $('try-api').value;
  const isOcr = id === 'ocr-idcard';
  $('try-file-field').hidden = !isOcr;
  const request = { ...(state.examples[id]?.request ?? {}) };
  if (isOcr) request.base64_image = state.file ? t('filePlaceholder')(state.file.name) : '';
  $('try-body').value = JSON.stringify(request, null, 2);
  markTryAvailability();
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

/** A problem with the request, beside the Send button where the eye is. */
function tryError(message) {
  $('try-error').textContent = message;
}

function clearResult(message) {
  $('result-status').textContent = message;
  $('result-body').textContent = '';
  $('result-link').hidden = true;
  $('result-verdict').hidden = true;
}

/**
 * The message check's verdict in words above the JSON: smishing or not, the kind of scam, its
 * score and what to do, each shown when the answer carries it (`scam_label`, `score` and `advice`
 * come with the message judge).
 */
function showVerdict(answer) {
  const box = $('result-verdict');
  if (typeof answer?.is_smishing !== 'boolean') return;
  const parts = [answer.is_smishing ? t('verdictScam') : t('verdictClean')];
  if (answer.scam_label) parts.push(answer.scam_label);
  if (typeof answer.score === 'number') parts.push(`${t('score')} ${answer.score.toFixed(2)}`);
  const headline = document.createElement('strong');
  headline.textContent = parts.join(' · ');
  box.replaceChildren(headline);
  const advice = Array.isArray(answer.advice) ? answer.advice.join(' ') : answer.advice;
  if (typeof advice === 'string' && advice) {
    const line = document.createElement('p');
    line.textContent = `${t('advice')} ${advice}`;
    box.append(line);
  }
  box.className = answer.is_smishing ? 'verdict scam' : 'verdict';
  box.hidden = false;
}

async function send(event) {
  event.preventDefault();
  const api = apiById($('try-api').value);
  const key = $('try-key').value.trim();
  clearResult('');
  tryError('');
  if (!key) return tryError(t('needKey'));
  let body;
  try { body = JSON.parse($('try-body').value); } catch { return tryError(t('badJson')); }
  if (api.id === 'ocr-idcard') {
    if (!state.file) return tryError(t('needFile'));
    body.base64_image = state.file.base64;
  }
  clearResult(t('sending'));
  const res = await call('POST', api.path, body, { 'x-api-key': key });
  $('result-status').textContent = `HTTP ${res.status}`;
  $('result-body').textContent = JSON.stringify(res.json, null, 2);
  if (api.id === MESSAGE_CHECK.id && res.status === 200) showVerdict(res.json);
  if (res.status === 0 || res.status >= 400) tryError(`HTTP ${res.status || '—'}: ${res.json?.error ?? ''}`);
  const shortUrl = res.json && res.json.short_url;
  $('result-link').hidden = !shortUrl;
  if (shortUrl) $('short-link').href = shortUrl;
  if (state.token) await refreshAccount();
}

document.addEventListener('DOMContentLoaded', async () => {
  $('auth-form').addEventListener('submit', (event) => { event.preventDefault(); void authenticate(false); });
  $('register').addEventListener('click', () => { if ($('auth-form').reportValidity()) void authenticate(true); });
  $('logout').addEventListener('click', logout);
  $('login-link').addEventListener('click', (event) => { event.preventDefault(); $('auth').scrollIntoView(); $('email').focus(); });
  $('key-form').addEventListener('submit', createKey);
  $('copy-key').addEventListener('click', async () => {
    await navigator.clipboard?.writeText($('new-key-value').textContent).catch(() => {});
    say(t('copied'));
  });
  $('try-api').addEventListener('change', () => { clearResult(''); tryError(''); fillExample(); });
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
  // An invitation link opens the join page, signed in or not.
  if (window.portalTeam.openJoin()) return;
  if (state.token) await showAccount();
});
