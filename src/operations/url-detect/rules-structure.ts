import type { CanonicalUrl } from './canonicalize.js';
import { isPrivateAddress } from './checker.js';
import { CHEAP_TLDS, isInfrastructure, KOREAN_FREE_SUBDOMAINS, SHARED_HOSTING, SHORTENERS } from './domains.js';
import type { Signal } from './signals.js';
import { entropy } from './similarity.js';

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
      signals.push({ category: 'malware', weight: 70, reason: '사설 네트워크 또는 내부 주소(IP)로 연결되는 링크' });
    } else {
      signals.push({ category: 'malware', weight: 30, reason: '도메인 없이 IP 주소로 직접 연결되는 링크' });
    }
  }
  if (!STANDARD_PORTS.has(url.port)) {
    signals.push({ category: 'generic', weight: 10, reason: `흔하지 않은 포트(${url.port}) 사용` });
  }
  if (lastSegment.endsWith('.apk')) {
    signals.push({ category: 'malware', weight: 55, reason: '안드로이드 앱 설치 파일(APK)을 바로 내려받는 링크', decisive: true });
  } else if (EXECUTABLE.test(lastSegment)) {
    // Vendors publish installers too: an executable alone is suspicious, not yet harmful.
    signals.push({
      category: 'malware',
      weight: 45,
      reason: `실행 파일(${lastSegment.split('.').pop()})을 바로 내려받는 링크`,
      decisive: true,
    });
  } else if (ARCHIVE.test(lastSegment)) {
    signals.push({ category: 'generic', weight: 10, reason: '압축·디스크 이미지 파일을 바로 내려받는 링크' });
  }
  if (url.hasUserinfo) {
    signals.push({ category: 'phishing', weight: 40, reason: "주소에 '@'를 넣어 실제 접속 호스트를 숨기는 형태" });
  }
  if (url.ipVersion) return signals;
  if (!url.host.includes('.') || /\.(localhost|local|internal|lan|home\.arpa)$/.test(url.host)) {
    signals.push({ category: 'malware', weight: 70, reason: `내부망 전용 호스트(${url.host})로 연결되는 링크` });
    return signals;
  }

  const tld = url.host.split('.').pop() ?? '';
  if (CHEAP_TLDS.has(tld)) signals.push({ category: 'generic', weight: 15, reason: `악용이 잦은 저가 최상위 도메인(.${tld})` });
  if (url.domain && KOREAN_FREE_SUBDOMAINS.has(url.domain)) {
    signals.push({ category: 'generic', weight: 15, reason: `무료 서브도메인 서비스(${url.domain}) 주소` });
  } else if (url.domain && SHARED_HOSTING.has(url.domain)) {
    signals.push({ category: 'generic', weight: 5, reason: `누구나 만들 수 있는 공유 호스팅(${url.domain}) 주소` });
  }
  if (url.domain && SHORTENERS.has(url.domain) && url.path.length > 1) {
    signals.push({ category: 'spam', weight: 25, reason: '단축 URL이라 최종 목적지를 확인할 수 없음' });
  }

  const subLabels = url.subdomain ? url.subdomain.split('.') : [];
  if (subLabels.length >= 4)
    signals.push({ category: 'generic', weight: 15, reason: `하위 도메인이 지나치게 많음(${subLabels.length}단계)` });
  if (subLabels.some((label) => TLD_LIKE.has(label)) && subLabels.length >= 2 && !isInfrastructure(url.domain)) {
    signals.push({ category: 'phishing', weight: 25, reason: '다른 도메인 이름을 하위 도메인에 넣어 위장한 형태' });
  }
  if (url.host.length > 50) signals.push({ category: 'generic', weight: 10, reason: `호스트 이름이 매우 김(${url.host.length}자)` });
  if ((url.domainLabel.match(/-/g) ?? []).length >= 3) {
    signals.push({ category: 'generic', weight: 10, reason: '하이픈이 여러 개 들어간 도메인' });
  }
  const label = url.domainLabel;
  if (!label.startsWith('xn--') && label.length >= 10 && entropy(label) > 3.3 && /\d/.test(label) && !/[aeiou]{2}/.test(label)) {
    signals.push({ category: 'malware', weight: 25, reason: '무작위로 생성된 것처럼 보이는 도메인 이름' });
  }
  if (/[a-z]\d{2,4}$|^\d{2,4}[a-z]/.test(label) && label.length <= 20) {
    signals.push({ category: 'generic', weight: 5, reason: '이름 끝이나 앞에 숫자를 붙인 도메인(주소를 자주 바꾸는 사이트의 특징)' });
  }
  return signals;
}
