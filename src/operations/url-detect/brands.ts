/**
 * Services that smishing and phishing imitate most in Korea, with the registrable domains
 * that really belong to them. A brand token in a host outside these domains is the
 * strongest single sign of impersonation.
 */
export interface Brand {
  /** Korean display name used in reasons. */
  name: string;
  /** Romanized tokens as they appear in hosts (lower-case, matched within host labels). */
  tokens: string[];
  /** Korean spellings, matched in IDN hosts and decoded paths. */
  korean: string[];
  /** Registrable domains the brand owns (a bare name is the brand's own top-level domain, `.naver`). */
  domains: string[];
}

export const BRANDS: readonly Brand[] = [
  { name: '네이버', tokens: ['naver'], korean: ['네이버'], domains: ['naver', 'naver.com', 'naver.me', 'navercorp.com', 'naver.net', 'pstatic.net', 'navercloud.com', 'ncloud.com', 'line.me'] },
  { name: '카카오', tokens: ['kakao', 'kakaotalk', 'kakaopay'], korean: ['카카오', '카톡'], domains: ['kakao.com', 'kakaocorp.com', 'kakaopay.com', 'kakaobank.com', 'kakaomobility.com', 'kakaocdn.net', 'kko.to', 'daum.net', 'kakaoenterprise.com', 'kakaostyle.com'] },
  { name: '토스', tokens: ['toss', 'tossbank', 'tosspay'], korean: ['토스'], domains: ['toss.im', 'tossbank.com', 'tosspayments.com', 'tossinvest.com', 'toss.me', 'tossmini.com'] },
  { name: '정부24', tokens: ['gov24', 'minwon', 'mois'], korean: ['정부24', '민원24'], domains: ['gov.kr', 'korea.kr', 'go.kr'] },
  { name: '국민건강보험', tokens: ['nhis', 'nhic', 'gunbo'], korean: ['건강보험', '건보공단'], domains: ['nhis.or.kr'] },
  { name: '국세청', tokens: ['hometax', 'nts'], korean: ['국세청', '홈택스'], domains: ['hometax.go.kr', 'nts.go.kr'] },
  { name: '우체국', tokens: ['epost', 'koreapost'], korean: ['우체국'], domains: ['epost.go.kr', 'epost.kr', 'koreapost.go.kr'] },
  { name: 'CJ대한통운', tokens: ['cjlogistics', 'doortodoor', 'cjlogis', 'cjdaehan'], korean: ['대한통운'], domains: ['cjlogistics.com', 'doortodoor.co.kr'] },
  { name: '한진택배', tokens: ['hanjin'], korean: ['한진택배'], domains: ['hanjin.com', 'hanjin.co.kr', 'hanjinexpress.com'] },
  { name: '롯데택배', tokens: ['lotteglogis', 'lottelogis'], korean: ['롯데택배'], domains: ['lotteglogis.com'] },
  { name: '로젠택배', tokens: ['ilogen', 'logen'], korean: ['로젠택배'], domains: ['ilogen.com'] },
  { name: '쿠팡', tokens: ['coupang'], korean: ['쿠팡'], domains: ['coupang.com', 'coupangcdn.com', 'coupangplay.com', 'coupangeats.com'] },
  { name: 'KB국민은행', tokens: ['kbstar', 'kbbank', 'kbcard', 'kookmin'], korean: ['국민은행', '국민카드'], domains: ['kbstar.com', 'kbcard.com', 'kbfg.com', 'kbinsure.co.kr', 'kbsec.com'] },
  { name: '신한은행', tokens: ['shinhan'], korean: ['신한은행', '신한카드'], domains: ['shinhan.com', 'shinhancard.com', 'shinhansec.com', 'shinhangroup.com', 'shinhanlife.co.kr'] },
  { name: '우리은행', tokens: ['wooribank', 'wooricard', 'woorifg'], korean: ['우리은행'], domains: ['wooribank.com', 'wooricard.com', 'woorifg.com'] },
  { name: '하나은행', tokens: ['hanabank', 'hanacard', 'kebhana'], korean: ['하나은행'], domains: ['hanabank.com', 'hanacard.co.kr', 'hanafn.com', 'kebhana.com'] },
  { name: 'NH농협', tokens: ['nonghyup', 'nhbank', 'nhcard'], korean: ['농협'], domains: ['nonghyup.com', 'nhbank.com', 'nhcard.com', 'nhqv.com'] },
  { name: 'IBK기업은행', tokens: ['ibkbank', 'ibk'], korean: ['기업은행'], domains: ['ibk.co.kr'] },
  { name: '카카오뱅크', tokens: ['kakaobank'], korean: ['카카오뱅크'], domains: ['kakaobank.com'] },
  { name: '케이뱅크', tokens: ['kbank'], korean: ['케이뱅크'], domains: ['kbanknow.com'] },
  { name: '삼성', tokens: ['samsung', 'samsungcard'], korean: ['삼성카드'], domains: ['samsung', 'samsung.com', 'samsungcard.com', 'samsungpay.com', 'samsungfire.com', 'samsunglife.com', 'samsungpop.com', 'samsungosp.com', 'samsungapps.com', 'samsungcloud.com', 'samsungcloudsolution.com', 'samsungqbe.com', 'samsungelectronics.com', 'samsungsds.com'] },
  { name: '현대카드', tokens: ['hyundaicard'], korean: ['현대카드'], domains: ['hyundaicard.com'] },
  { name: '경찰청', tokens: ['police', 'ecrm'], korean: ['경찰청', '사이버수사'], domains: ['police.go.kr'] },
  { name: '금융감독원', tokens: ['fss'], korean: ['금융감독원', '금감원'], domains: ['fss.or.kr'] },
  { name: '업비트', tokens: ['upbit'], korean: ['업비트'], domains: ['upbit.com'] },
  { name: '빗썸', tokens: ['bithumb'], korean: ['빗썸'], domains: ['bithumb.com'] },
  { name: '애플', tokens: ['apple', 'icloud', 'appleid'], korean: ['애플'], domains: ['apple', 'apple.com', 'icloud.com', 'apple.co', 'apple-dns.net', 'aaplimg.com', 'mzstatic.com', 'cdn-apple.com', 'apple-cloudkit.com', 'icloud-content.com', 'apple.news'] },
  { name: '구글', tokens: ['google', 'gmail'], korean: ['구글'], domains: ['google', 'google.com', 'google.co.kr', 'gmail.com', 'youtube.com', 'googleapis.com', 'goo.gl', 'g.co', 'gstatic.com', 'googleusercontent.com', 'googlevideo.com', 'googlesyndication.com', 'googleadservices.com', 'google-analytics.com', 'googletagmanager.com', 'googletagservices.com', 'doubleclick.net', 'ggpht.com', 'gvt1.com', 'gvt2.com', 'withgoogle.com', 'googledomains.com', 'googleblog.com'] },
  { name: '마이크로소프트', tokens: ['microsoft', 'office365', 'outlook', 'onedrive'], korean: [], domains: ['microsoft', 'microsoft.com', 'office.com', 'live.com', 'outlook.com', 'office365.com', 'microsoftonline.com', 'microsoftonline.us', 'onedrive.com', 'sharepoint.com', 'microsoft365.com', 'office.net', 'msn.com', 'bing.com', 'windows.com', 'windows.net', 'windowsupdate.com', 'msedge.net', 'azure.com', 'azureedge.net', 'msftauth.net', 'msauth.net', 'skype.com', 'xbox.com', 'microsoftstore.com', 'mcas.ms', 'msft.net', 'microsoftapp.net'] },
  { name: '페이팔', tokens: ['paypal'], korean: [], domains: ['paypal.com', 'paypal.me', 'paypalobjects.com', 'paypal-dynamic.com'] },
  { name: '넷플릭스', tokens: ['netflix'], korean: ['넷플릭스'], domains: ['netflix.com', 'netflix.net', 'nflxvideo.net', 'nflximg.net', 'nflxext.com', 'nflxso.net'] },
  { name: '아마존', tokens: ['amazon'], korean: [], domains: ['amazon', 'amazon.com', 'amazon.co.jp', 'amazon.co.uk', 'amazon.de', 'amazonaws.com', 'aws.amazon.com', 'amazon.dev', 'a2z.com', 'media-amazon.com', 'ssl-images-amazon.com', 'images-amazon.com', 'amazon-adsystem.com', 'amazonvideo.com', 'primevideo.com', 'amazontrust.com', 'cloudfront.net'] },
  { name: '메타', tokens: ['facebook', 'instagram', 'whatsapp'], korean: ['페이스북', '인스타그램'], domains: ['facebook.com', 'instagram.com', 'whatsapp.com', 'whatsapp.net', 'fb.com', 'fbcdn.net', 'facebook.net', 'cdninstagram.com', 'meta.com'] },
  { name: 'DHL', tokens: ['dhl'], korean: [], domains: ['dhl.com', 'dhl.co.kr'] },
  { name: '바이낸스', tokens: ['binance'], korean: [], domains: ['binance.com'] },
];

/** Tokens short enough to appear by chance inside words: they must stand alone as a label part. */
export const SHORT_TOKEN_LENGTH = 4;
