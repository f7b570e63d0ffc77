// The developer portal: sign-up, keys, subscriptions and a "try it" panel, over the public API.
// No framework: a handful of fetch calls and DOM updates. The login token lives in sessionStorage
// (gone with the tab); a new API key is shown once and never stored.
'use strict';

const TEXT = {
  ko: {
    skip: '본문으로 건너뛰기', docs: 'API 문서', lead: '가입하고 API 키를 받아 여덟 가지 AI 기능을 바로 써 보세요.',
    authTitle: '가입 / 로그인', email: '이메일', password: '비밀번호 (8자 이상)', login: '로그인', register: '가입하기',
    keysTitle: 'API 키', logout: '로그아웃', keyName: '키 이름', createKey: '새 키 만들기',
    keyOnce: '이 키는 지금 한 번만 보입니다. 안전한 곳에 복사해 두세요.', copy: '복사', copied: '복사했습니다.',
    name: '이름', prefix: '접두어', lastUsed: '마지막 사용', actions: '작업', revoke: '폐기', never: '없음',
    catalogTitle: 'API 카탈로그와 남은 호출 수', category: '분류', remaining: '남은 호출', renews: '초기화',
    subscribe: '구독', subscribed: '구독 중', notSubscribed: '구독 필요',
    tryTitle: '직접 호출해 보기', apiKey: 'API 키', operation: '기능', body: '요청 본문 (JSON)', send: '보내기',
    openLink: '짧은 링크 열기', registered: '가입했습니다. 로그인했어요.', loggedIn: '로그인했습니다.',
    keyCreated: '새 API 키를 만들었습니다.', keyRevoked: 'API 키를 폐기했습니다.', subscribedTo: '구독했습니다: ',
    badJson: '요청 본문이 올바른 JSON이 아닙니다.', needKey: 'API 키를 입력하세요.', network: '서버에 연결하지 못했습니다.',
    other: 'English',
  },
  en: {
    skip: 'Skip to content', docs: 'API docs', lead: 'Sign up, get an API key and try eight AI utilities right away.',
    authTitle: 'Sign up / Log in', email: 'Email', password: 'Password (8+ characters)', login: 'Log in', register: 'Sign up',
    keysTitle: 'API keys', logout: 'Log out', keyName: 'Key name', createKey: 'Create key',
    keyOnce: 'This key is shown only now. Copy it somewhere safe.', copy: 'Copy', copied: 'Copied.',
    name: 'Name', prefix: 'Prefix', lastUsed: 'Last used', actions: 'Actions', revoke: 'Revoke', never: 'never',
    catalogTitle: 'API catalogue and remaining calls', category: 'Category', remaining: 'Remaining', renews: 'Renews',
    subscribe: 'Subscribe', subscribed: 'Subscribed', notSubscribed: 'Subscription needed',
    tryTitle: 'Try it', apiKey: 'API key', operation: 'Operation', body: 'Request body (JSON)', send: 'Send',
    openLink: 'Open the short link', registered: 'Signed up and logged in.', loggedIn: 'Logged in.',
    keyCreated: 'New API key created.', keyRevoked: 'API key revoked.', subscribedTo: 'Subscribed: ',
    badJson: 'The request body is not valid JSON.', needKey: 'Enter an API key.', network: 'Could not reach the server.',
    other: '한국어',
  },
};

const state = { lang: localStorage.getItem('lang') === 'en' ? 'en' : 'ko', token: sessionStorage.getItem('token'), catalog: [], examples: {} };
const $ = (id) => document.getElementById(id);
const t = (key) => TEXT[state.lang][key] ?? key;

function say(message) {
  $('status').textContent = message;
}

async function call(method, path, body, headers = {}) {
  try {
    const res = await fetch(path, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
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

function applyLanguage() {
  document.documentElement.lang = state.lang;
  for (const node of document.querySelectorAll('[data-i18n]')) node.textContent = t(node.dataset.i18n);
  $('lang').textContent = t('other');
  $('lang').setAttribute('aria-label', t('other'));
  if (!$('account').hidden) void refreshAccount();
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
    cell(row, api.name, 'API');
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
      button.setAttribute('aria-label', `${t('subscribe')}: ${api.name}`);
      button.onclick = async () => {
        const res = await call('POST', '/api/v1/subscriptions', { api: api.id }, withToken());
        say(res.status === 201 ? t('subscribedTo') + api.name : res.json.error);
        await refreshAccount();
      };
      action.append(button);
    }
  }
}

function logout() {
  state.token = null;
  sessionStorage.removeItem('token');
  $('account').hidden = true;
  $('auth').hidden = false;
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
  for (const api of state.catalog) {
    const example = openapi.json.paths?.[api.path]?.post?.requestBody?.content?.['application/json']?.example;
    state.examples[api.id] = example ?? {};
    const option = document.createElement('option');
    option.value = api.id;
    option.textContent = `${api.name} — POST ${api.path}`;
    $('try-api').append(option);
  }
  $('try-api').value = 'url-shortener';
  fillExample();
}

function fillExample() {
  $('try-body').value = JSON.stringify(state.examples[$('try-api').value] ?? {}, null, 2);
}

async function send(event) {
  event.preventDefault();
  const api = state.catalog.find((entry) => entry.id === $('try-api').value);
  const key = $('try-key').value.trim();
  if (!key) return say(t('needKey'));
  try { JSON.parse($('try-body').value); } catch { return say(t('badJson')); }
  const res = await call('POST', api.path, $('try-body').value, { 'x-api-key': key });
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
  $('try-api').addEventListener('change', fillExample);
  $('try-form').addEventListener('submit', send);
  $('lang').addEventListener('click', () => {
    state.lang = state.lang === 'ko' ? 'en' : 'ko';
    localStorage.setItem('lang', state.lang);
    applyLanguage();
  });
  await loadCatalog();
  applyLanguage();
  if (state.token) await showAccount();
});
