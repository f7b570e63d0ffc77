import type { CanonicalUrl } from '../canonicalize.js';
import { isPrivateAddress } from '../checker.js';
import { CHEAP_TLDS, isInfrastructure, KOREAN_FREE_SUBDOMAINS, SHARED_HOSTING, SHORTENERS } from './domains.js';
import type { Signal } from '../signals.js';
import { entropy } from './similarity.js';
import { WEIGHTS } from './tables.js';

const POINTS = WEIGHTS.structure;
const KIT = WEIGHTS.phishingKit;

const EXECUTABLE = /\.(exe|scr|msi|bat|cmd|ps1|vbs|vbe|hta|jar|dll|lnk|wsf|pif|cpl|msix|appx)$/;
const ARCHIVE = /\.(zip|rar|7z|iso|img|dmg|cab)$/;
const TLD_LIKE = new Set(['com', 'net', 'org', 'kr', 'co', 'go', 'or', 'io', 'info', 'biz', 'me']);
const STANDARD_PORTS = new Set(['', '80', '443', '8080', '8443']);

/** Shape of the address itself: IP hosts, downloads, hiding tricks, cheap TLDs, shorteners. */
export function structureSignals(url: CanonicalUrl): Signal[] {
  const signals: Signal[] = [];
  const lastSegment = (url.path.split('/').pop() ?? '').toLowerCase();

  if (url.ipVersion) {
    if (isPrivateAddress(url.host)) {
      signals.push({ category: 'malware', weight: POINTS.privateAddress, reason: '사설 네트워크 또는 내부 주소(IP)로 연결되는 링크' });
    } else {
      signals.push({ category: 'malware', weight: POINTS.ipHost, reason: '도메인 없이 IP 주소로 직접 연결되는 링크' });
    }
  }
  if (!STANDARD_PORTS.has(url.port)) {
    signals.push({ category: 'generic', weight: POINTS.oddPort, reason: `흔하지 않은 포트(${url.port}) 사용` });
  }
  if (lastSegment.endsWith('.apk')) {
    signals.push({ category: 'malware', weight: POINTS.apk, reason: '안드로이드 앱 설치 파일(APK)을 바로 내려받는 링크', decisive: true });
  } else if (EXECUTABLE.test(lastSegment)) {
    // Vendors publish installers too: an executable alone is suspicious, not yet harmful.
    signals.push({
      category: 'malware',
      weight: POINTS.executable,
      reason: `실행 파일(${lastSegment.split('.').pop()})을 바로 내려받는 링크`,
      decisive: true,
    });
  } else if (ARCHIVE.test(lastSegment)) {
    signals.push({ category: 'generic', weight: POINTS.archive, reason: '압축·디스크 이미지 파일을 바로 내려받는 링크' });
  }
  if (url.hasUserinfo) {
    signals.push({ category: 'phishing', weight: POINTS.userinfo, reason: "주소에 '@'를 넣어 실제 접속 호스트를 숨기는 형태" });
  }
  signals.push(...phishingKitSignals(url));
  if (url.ipVersion) return signals;
  if (!url.host.includes('.') || /\.(localhost|local|internal|lan|home\.arpa)$/.test(url.host)) {
    signals.push({ category: 'malware', weight: POINTS.internalHost, reason: `내부망 전용 호스트(${url.host})로 연결되는 링크` });
    return signals;
  }

  const tld = url.host.split('.').pop() ?? '';
  if (CHEAP_TLDS.has(tld))
    signals.push({ category: 'generic', weight: POINTS.cheapTld, reason: `악용이 잦은 저가 최상위 도메인(.${tld})`, shape: true });
  if (url.domain && KOREAN_FREE_SUBDOMAINS.has(url.domain)) {
    signals.push({ category: 'generic', weight: POINTS.koreanFreeSubdomain, reason: `무료 서브도메인 서비스(${url.domain}) 주소` });
  } else if (url.domain && SHARED_HOSTING.has(url.domain)) {
    signals.push({ category: 'generic', weight: POINTS.sharedHosting, reason: `누구나 만들 수 있는 공유 호스팅(${url.domain}) 주소` });
  }
  if (url.domain && SHORTENERS.has(url.domain) && url.path.length > 1) {
    signals.push({ category: 'spam', weight: POINTS.shortener, reason: '단축 URL이라 최종 목적지를 확인할 수 없음' });
  }

  const subLabels = url.subdomain ? url.subdomain.split('.') : [];
  if (subLabels.length >= 4)
    signals.push({
      category: 'generic',
      weight: POINTS.manySubdomains,
      reason: `하위 도메인이 지나치게 많음(${subLabels.length}단계)`,
      shape: true,
    });
  if (subLabels.some((label) => TLD_LIKE.has(label)) && subLabels.length >= 2 && !isInfrastructure(url.domain)) {
    signals.push({ category: 'phishing', weight: POINTS.domainInSubdomain, reason: '다른 도메인 이름을 하위 도메인에 넣어 위장한 형태' });
  }
  if (url.host.length > 50)
    signals.push({ category: 'generic', weight: POINTS.longHost, reason: `호스트 이름이 매우 김(${url.host.length}자)`, shape: true });
  if ((url.domainLabel.match(/-/g) ?? []).length >= 3) {
    signals.push({ category: 'generic', weight: POINTS.manyHyphens, reason: '하이픈이 여러 개 들어간 도메인', shape: true });
  }
  const label = url.domainLabel;
  if (!label.startsWith('xn--') && label.length >= 10 && entropy(label) > 3.3 && /\d/.test(label) && !/[aeiou]{2}/.test(label)) {
    signals.push({ category: 'malware', weight: POINTS.randomName, reason: '무작위로 생성된 것처럼 보이는 도메인 이름', shape: true });
  }
  if (/[a-z]\d{2,4}$|^\d{2,4}[a-z]/.test(label) && label.length <= 20) {
    signals.push({
      category: 'generic',
      weight: POINTS.digitsAtEdge,
      reason: '이름 끝이나 앞에 숫자를 붙인 도메인(주소를 자주 바꾸는 사이트의 특징)',
      shape: true,
    });
  }
  return signals;
}

/** WordPress's own scripts under its folders: anything else ending in .php there was uploaded. */
const WORDPRESS_SCRIPTS =
  /^(admin-ajax|admin-post|load-scripts|load-styles|async-upload|wp-tinymce|ms-files|xmlrpc|index|wp-login|upgrade|install|post|edit|options|plugins|themes|tools|users|profile|update-core|media-new|upload|customize|widgets|nav-menus|about|theme-install|plugin-install)\.php$/;
/** A page named for what phishing asks for: login.php, verify.html, webscr… */
const FORM_PAGE =
  /(^|[-_.])(log-?in|sign-?in|logon|verif(y|ication)|validat(e|ion)|account|update|secure|webscr|auth|password|passwd|billing|payment|wallet|recover(y)?|unlock|confirm|invoice|webmail|mailbox|otp|sms)[-_a-z0-9]*\.(php|html?|aspx?)$/;
const EMAIL_IN_PATH = /[a-z0-9._%+-]+@[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}/;
const RANDOM_FOLDER = /\/[0-9a-f]{24,}\//;

/**
 * Where phishing kits sit on hacked or rented sites: pages uploaded into WordPress's own
 * folders or `.well-known`, login-named pages, the victim's address carried in the link,
 * throw-away random folders. Each is specific to the page, so it weighs on shared hosting too.
 */
export function phishingKitSignals(url: CanonicalUrl): Signal[] {
  const path = url.path.toLowerCase();
  const signals: Signal[] = [];
  const segments = path.split('/').filter(Boolean);
  const last = segments[segments.length - 1] ?? '';
  const page = /\.(php|html?|aspx?)$/.test(last);
  if (/^\/wp-(content|includes|admin)\//.test(path) && page && (segments.length > 3 || !WORDPRESS_SCRIPTS.test(last))) {
    if (!/^\/wp-admin\/[a-z-]+\.php$/.test(path) && !/^\/wp-includes\/js\//.test(path)) {
      signals.push({
        category: 'phishing',
        weight: KIT.wordpressFolder,
        reason: '워드프레스 폴더 안에 올린 웹 페이지(해킹된 사이트에 심은 피싱 키트의 흔한 위치)',
      });
    }
  } else if (path.startsWith('/.well-known/') && page) {
    signals.push({
      category: 'phishing',
      weight: KIT.wellKnownFolder,
      reason: '.well-known 폴더 안에 숨긴 웹 페이지(피싱 키트의 흔한 위치)',
    });
  }
  if (FORM_PAGE.test(last) && segments.length >= 2) {
    signals.push({
      category: 'phishing',
      weight: KIT.formPage,
      reason: `로그인·인증을 요구하는 이름의 페이지('${last}')를 하위 폴더에 둠`,
    });
  }
  if (!url.hasUserinfo && EMAIL_IN_PATH.test(url.decodedText)) {
    signals.push({
      category: 'phishing',
      weight: KIT.emailInPath,
      reason: '링크 안에 받는 사람의 이메일 주소가 들어 있음(맞춤형 피싱 링크의 특징)',
    });
  }
  if (RANDOM_FOLDER.test(path) && page) {
    signals.push({ category: 'generic', weight: KIT.randomFolder, reason: '무작위 문자열로 된 폴더 안의 웹 페이지' });
  }
  return signals;
}
