import { parse as parseDomain } from 'tldts';
import { BRANDS } from './brands.js';

/**
 * First-party allowlist: registrable domains of well-known Korean and global services.
 * A URL on one of them (or a subdomain) is clean unless a list names that exact page.
 * Brand domains (brands.ts) are included automatically.
 */
const FIRST_PARTY = [
  // portals, search, encyclopedias, communities
  'naver.com', 'daum.net', 'nate.com', 'zum.com', 'namu.wiki', 'wikipedia.org', 'wikimedia.org', 'wiktionary.org',
  'dcinside.com', 'clien.net', 'fmkorea.com', 'ruliweb.com', 'theqoo.net', 'inven.co.kr', 'ppomppu.co.kr', 'instiz.net',
  'reddit.com', 'stackoverflow.com', 'quora.com', 'medium.com', 'brunch.co.kr', 'velog.io',
  // platforms
  'youtube.com', 'youtu.be', 'x.com', 'twitter.com', 'linkedin.com', 'threads.net', 'tiktok.com', 'discord.com',
  'slack.com', 'zoom.us', 'notion.so', 'github.com', 'gitlab.com', 'npmjs.com', 'mozilla.org', 'cloudflare.com',
  'dropbox.com', 'spotify.com', 'twitch.tv', 'chzzk.naver.com', 'afreecatv.com', 'sooplive.co.kr', 'webtoons.com',
  'watcha.com', 'wavve.com', 'tving.com', 'melon.com', 'genie.co.kr', 'bugs.co.kr', 'yes24.com', 'kyobobook.co.kr',
  'aladin.co.kr', 'ridibooks.com', 'openai.com', 'chatgpt.com', 'adobe.com', 'zoom.com',
  // shops, delivery, travel, mobility
  '11st.co.kr', 'gmarket.co.kr', 'auction.co.kr', 'ssg.com', 'lotteon.com', 'emart.com', 'homeplus.co.kr',
  'musinsa.com', '29cm.co.kr', 'kurly.com', 'oliveyoung.co.kr', 'baemin.com', 'woowahan.com', 'yogiyo.co.kr',
  'daangn.com', 'bunjang.co.kr', 'joongna.com', 'interpark.com', 'yanolja.com', 'goodchoice.kr', 'myrealtrip.com',
  'koreanair.com', 'flyasiana.com', 'letskorail.com', 'korail.com', 'tmoney.co.kr', 'tmap.co.kr', 'danawa.com',
  'enuri.com', 'aliexpress.com', 'temu.com', 'ebay.com', 'airbnb.com', 'booking.com', 'agoda.com', 'cgv.co.kr',
  'lottecinema.co.kr', 'megabox.co.kr', 'ticketlink.co.kr', 'melon.com', 'starbucks.co.kr', 'ikea.com',
  'hmall.com', 'gsshop.com', 'lotteimall.com', 'lotte.com', 'cjonstyle.com', 'nsmall.com', 'akmall.com', 'shinsegae.com',
  'ssgdfs.com', 'galleria.co.kr', 'wemakeprice.com', 'tmon.co.kr', 'ohou.se', 'zigzag.kr', 'a-bly.com', 'kream.co.kr',
  'wconcept.co.kr', 'sivillage.com', 'halfclub.com', 'hyundaidepartment.com', 'thehyundai.com', 'gmarket.com',
  // finance, telecom, industry
  'hanacard.co.kr', 'lottecard.co.kr', 'bccard.com', 'jbbank.co.kr', 'kjbank.com', 'jejubank.co.kr', 'im-bank.co.kr',
  'imbank.co.kr', 'kdb.co.kr', 'epostbank.go.kr', 'cu.co.kr', 'kfcc.co.kr', 'shinhyup.co.kr', 'sc.co.kr', 'kebhana.com', 'kbanknow.com', 'suhyup-bank.com', 'busanbank.co.kr',
  'dgb.co.kr', 'knbank.co.kr', 'standardchartered.co.kr', 'citibank.co.kr', 'miraeasset.com', 'kiwoom.com',
  'koreainvestment.com', 'nhqv.com', 'kbsec.com', 'payco.com', 'naverpay.com', 'kftc.or.kr', 'kcredit.or.kr',
  'sktelecom.com', 'tworld.co.kr', 'kt.com', 'lguplus.com', 'lg.co.kr', 'lge.co.kr', 'hyundai.com', 'kia.com',
  'sk.com', 'posco.com', 'lotte.co.kr', 'cj.net', 'hanwha.com', 'kepco.co.kr', 'betman.co.kr', 'kangwonland.com',
  // public bodies outside go.kr, education
  'gov.kr', 'korea.kr', 'nhis.or.kr', 'nps.or.kr', 'fss.or.kr', 'kisa.or.kr', 'krx.co.kr', 'kosis.kr', 'ebs.co.kr',
  'kocw.net', 'kmooc.kr', 'snu.ac.kr', 'yonsei.ac.kr', 'korea.ac.kr', 'kaist.ac.kr', 'postech.ac.kr', 'skku.edu',
  'hanyang.ac.kr', 'coursera.org', 'khanacademy.org', 'duolingo.com',
  // news
  'chosun.com', 'joongang.co.kr', 'donga.com', 'hani.co.kr', 'khan.co.kr', 'yna.co.kr', 'kbs.co.kr', 'mbc.co.kr',
  'imbc.com', 'sbs.co.kr', 'jtbc.co.kr', 'ytn.co.kr', 'mk.co.kr', 'hankyung.com', 'mt.co.kr', 'edaily.co.kr',
  'etnews.com', 'zdnet.co.kr', 'bloter.net', 'ohmynews.com', 'newsis.com', 'news1.kr', 'sedaily.com', 'bbc.com',
  'bbc.co.uk', 'nytimes.com', 'cnn.com', 'reuters.com', 'theguardian.com', 'nikkei.com',
  // global
  'microsoft.com', 'apple.com', 'amazon.com', 'netflix.com', 'wordpress.org', 'w3.org', 'python.org', 'nodejs.org',
  'toto.com', 'toto.co.jp',
];

/** Suffixes whose every domain belongs to the state. */
const FIRST_PARTY_SUFFIXES = ['go.kr', 'mil.kr'];

/** Hosts of allowlisted domains where anyone can publish: judged like any other host. */
const UNTRUSTED_HOSTS = new Set([
  'sites.google.com', 'docs.google.com', 'drive.google.com', 'storage.googleapis.com', 'firebasestorage.googleapis.com',
  'gist.github.com', 'forms.office.com', 'onedrive.live.com', '1drv.ms',
]);

/**
 * Shared hosting and free-subdomain services: the subdomain is somebody else's site, so the
 * platform itself is never allowlisted and a brand name in the subdomain is impersonation.
 */
export const SHARED_HOSTING = new Set([
  'pages.dev', 'workers.dev', 'r2.dev', 'github.io', 'gitlab.io', 'blogspot.com', 'netlify.app', 'vercel.app',
  'web.app', 'firebaseapp.com', 'herokuapp.com', 'glitch.me', 'weebly.com', 'wixsite.com', 'notion.site',
  'tistory.com', 'cafe24.com', 'imweb.me', 'modoo.at', 'ngrok-free.app', 'ngrok.io', 'ngrok.app', 'duckdns.org',
  'no-ip.org', 'ddns.net', '000webhostapp.com', 'godaddysites.com', 'azurewebsites.net', 'cloudfront.net',
  'appspot.com', 'repl.co', 'surge.sh', 'webflow.io', 'framer.app', 'ipfs.io', 'dweb.link', 'amazonaws.com',
  'blob.core.windows.net', 'translate.goog', 'wordpress.com', 'myshopify.com', 'carrd.co', 'linktr.ee',
  // Korean free domain services (내도메인.한국 and the like): favourites of rotating gambling sites
  'kro.kr', 'p-e.kr', 'o-r.kr', 'r-e.kr', 'n-e.kr',
]);

/** Free Korean subdomain services, singled out in reasons. */
export const KOREAN_FREE_SUBDOMAINS = new Set(['kro.kr', 'p-e.kr', 'o-r.kr', 'r-e.kr', 'n-e.kr']);

/**
 * CDN, DNS and load-balancer zones: their hostnames are CNAME targets that repeat a customer's
 * name (`apple.com.akadns.net`, `paypal.com.cdn.cloudflare.net`), not pages anyone publishes.
 */
const INFRASTRUCTURE = new Set([
  'akadns.net', 'akamaiedge.net', 'akamai.net', 'akamaized.net', 'akamaihd.net', 'edgekey.net', 'edgesuite.net',
  'cloudflare.net', 'fastly.net', 'fastlylb.net', 'fastly-edge.com', 'trafficmanager.net', 'msedge.net',
  'azurefd.net', 'edgecastcdn.net', 'cdn77.org', 'llnwd.net', 'footprint.net', 'spo-msedge.net', 'dual-spo-0005.spo-msedge.net',
]);

/** Hosts under a private public suffix (`x.github.io`, `x.r2.dev`) or where anyone can publish. */
export function isSharedPlatformHost(host: string): boolean {
  return UNTRUSTED_HOSTS.has(host) || parseDomain(host, { allowPrivateDomains: true }).isPrivate === true;
}

export function isInfrastructure(domain: string | undefined): boolean {
  return domain !== undefined && INFRASTRUCTURE.has(domain);
}

/** URL shorteners: the destination is hidden, which is why spam and smishing love them. */
export const SHORTENERS = new Set([
  'bit.ly', 'bitly.com', 'tinyurl.com', 't.co', 'han.gl', 'me2.do', 'naver.me', 'vo.la', 'url.kr', 't.ly', 'is.gd',
  'cutt.ly', 'rebrand.ly', 'buly.kr', 'bit.do', 'shorturl.at', 'ow.ly', 'rb.gy', 'tiny.cc', 'c11.kr', 'zrr.kr',
  'lrl.kr', 's.id', 'gg.gg', 'v.gd', 'goo.su', 'clck.ru', 'qrco.de', 'kko.to', 'forms.gle', 'link24.kr', 'lnk.to',
]);

/** Cheap or heavily abused top-level domains (Spamhaus / Interisle abuse rankings). */
export const CHEAP_TLDS = new Set([
  'top', 'xyz', 'icu', 'cfd', 'sbs', 'cyou', 'bond', 'tk', 'ml', 'ga', 'cf', 'gq', 'pw', 'buzz', 'rest', 'quest',
  'monster', 'lol', 'click', 'link', 'bet', 'casino', 'poker', 'loan', 'loans', 'win', 'vip', 'club', 'online',
  'site', 'fun', 'live', 'work', 'cam', 'men', 'date', 'racing', 'download', 'stream', 'gdn', 'su', 'ws', 'cc',
  'info', 'biz', 'space', 'website', 'life', 'world', 'today', 'xin', 'help', 'support', 'services', 'asia',
  'mom', 'run', 'host', 'press', 'uno', 'best', 'bar', 'beauty', 'hair', 'makeup', 'skin', 'boats', 'autos',
  'homes', 'motorcycles', 'yachts', 'christmas', 'party', 'review', 'trade', 'accountant', 'science', 'cricket',
  'faith', 'tokyo', 'gay', 'sex', 'porn', 'xxx', 'adult',
]);

const allowlisted = new Set([...FIRST_PARTY, ...BRANDS.flatMap((brand) => brand.domains)]);

/** True when the host belongs to an allowlisted first party (never a shared platform). */
export function isFirstParty(host: string, domain: string | undefined, publicSuffix: string): boolean {
  if (!domain || UNTRUSTED_HOSTS.has(host) || SHARED_HOSTING.has(domain)) return false;
  if (FIRST_PARTY_SUFFIXES.includes(publicSuffix)) return true;
  return allowlisted.has(domain) || allowlisted.has(host);
}

/** True when `domain`/`host` is one of `owned` (a registrable domain or a public suffix). */
export function ownedBy(host: string, domain: string | undefined, publicSuffix: string, owned: readonly string[]): boolean {
  return owned.some((d) => d === domain || d === publicSuffix || host === d || host.endsWith(`.${d}`));
}
