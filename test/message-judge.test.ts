import { describe, expect, it } from 'vitest';
import { bandScore, createMessageJudge, SCORE_BANDS } from '../src/operations/url-scan/message-judge.js';
import { loadMessageModel } from '../src/operations/url-scan/model/message-model-file.js';
import type { CheckedUrl } from '../src/operations/url-scan/smishing-signals.js';

// Messages written for these tests (never texts of the data set the model was trained on).
const model = await loadMessageModel(undefined);
const judge = createMessageJudge({ model });
const clean = (url: string, reason = '알려진 위험 신호가 없습니다.'): CheckedUrl => ({
  url,
  final_url: url,
  is_malicious: false,
  category: 'clean',
  reason,
});

describe('the message judge (rules, the shipped message model, link verdicts)', () => {
  it('calls a family-impersonation text without a link a firm scam, with its type, reasons and advice', () => {
    const result = judge.judge('엄마 나 폰 액정 깨져서 수리 맡겼어 이 번호로 문자줘', []);
    expect(result).toMatchObject({ is_smishing: true, level: 'firm', scam_type: 'family_impersonation', scam_label: '가족·지인 사칭' });
    expect(result.score).toBeGreaterThanOrEqual(SCORE_BANDS.firm);
    expect(result.advice).toMatch(/이미 알고 있는 번호로 직접 전화/);
    expect(result.reasons.join('\n')).toMatch(/가족·지인 사칭 문자에 흔한 표현/);
    expect(result.reasons.join('\n')).toMatch(/메시지에 링크는 없습니다/);
  });

  it('calls a gift-card request of a "child" on a temporary phone a scam', () => {
    const result = judge.judge(
      '아빠 나야 폰이 고장나서 임시폰으로 연락해 급하게 부탁할 게 있는데 문화상품권 30만원만 대신 사줄 수 있어?',
      [],
    );
    expect(result.is_smishing).toBe(true);
    expect(result.reasons.join('\n')).toMatch(/돈\(송금·입금·상품권\)/);
  });

  it('never says a message is free of lures when its link is judged clean but the text is a scam', () => {
    const url = 'https://play-store.help/apk';
    const result = judge.judge(`엄마 나 폰 고장나서 임시폰이야 보험 처리 앱 설치해줘 ${url}`, [
      clean(url, '의심 신호: 새로 등록된 도메인, 앱 설치 경로'),
    ]);
    expect(result.is_smishing).toBe(true);
    expect(result.reasons.join('\n')).not.toMatch(/문구도 없습니다|모두 안전/);
  });

  it.each([
    '오늘 점심 뭐 먹을까? 회사 앞 국밥집 어때',
    '회의 자료 공유드립니다. 내일 10시까지 검토 부탁드려요',
    '[한빛마트] 김하은님 주문하신 상품이 내일 오전 배송 예정입니다. 주문번호 20251128-556677',
    '[바른은행] 12/01 09:12 입금 250,000원 박지민 잔액 1,832,100원',
  ])('does not call an ordinary message or notification a scam: %s', (text) => {
    const result = judge.judge(text, []);
    expect(result).toMatchObject({ is_smishing: false, scam_type: null, scam_label: null });
    expect(result.score).toBeLessThan(SCORE_BANDS.likely);
    expect(result.advice).toMatch(/뚜렷한 스미싱 징후는 찾지 못했습니다/);
  });

  it.each(['https://www.naver.com/', '  https://github.com/ai-utility-hub \n'])(
    'judges a bare link (a QR code, a pasted address) by its verdict alone: %s',
    (url) => {
      const result = judge.judge(url, [clean(url.trim(), '잘 알려진 공식 서비스의 주소입니다.')]);
      expect(result).toMatchObject({ is_smishing: false, scam_type: null });
      expect(result.reasons).toContain('링크 말고는 읽을 글이 없어 링크 검사 결과로만 판단했습니다.');
    },
  );

  it('still calls a bare harmful link a firm scam', () => {
    const url = 'http://bad.example/login';
    const result = judge.judge(url, [{ url, final_url: url, is_malicious: true, category: 'phishing', reason: 'KISA 피싱 목록' }]);
    expect(result).toMatchObject({ is_smishing: true, level: 'firm' });
  });

  it('makes any message with a harmful link a firm scam, the link named first', () => {
    const result = judge.judge('회의 자료입니다 http://bad.example/doc', [
      {
        url: 'http://bad.example/doc',
        final_url: 'http://bad.example/doc',
        is_malicious: true,
        category: 'phishing',
        reason: 'KISA 피싱 목록',
      },
    ]);
    expect(result).toMatchObject({ is_smishing: true, level: 'firm', scam_type: 'other', scam_label: '기타 스미싱' });
    expect(result.reasons[0]).toBe('bad.example: KISA 피싱 목록');
  });

  it('keeps a well-known script the data holds few of (prosecutor impersonation) in the uncertain middle at least', () => {
    const result = judge.judge(
      '[서울중앙지검] 귀하 명의의 대포통장이 범죄에 연루되어 연락드립니다. 수사관에게 전화 주세요 02-3480-2000',
      [],
    );
    expect(result.score).toBeGreaterThanOrEqual(SCORE_BANDS.uncertain);
  });

  it('lets a second opinion cross the "likely" line but never make a firm verdict', () => {
    const text = '[서울중앙지검] 귀하 명의의 대포통장이 범죄에 연루되어 연락드립니다. 수사관에게 전화 주세요 02-3480-2000';
    const offline = judge.judge(text, []);
    const scam = judge.overrule(offline, text, { scam: true, scamType: 'institution_impersonation' });
    expect(scam).toMatchObject({ is_smishing: true, level: 'likely', scam_type: 'institution_impersonation' });
    expect(scam.advice).toMatch(/1301/);
    const notScam = judge.overrule(offline, text, { scam: false });
    expect(notScam).toMatchObject({ is_smishing: false, scam_type: null });
  });

  it('says so when it judges without a model', () => {
    const rulesOnly = createMessageJudge();
    const result = rulesOnly.judge('엄마 나 폰 고장나서 이 번호로 문자줘 급하게 돈 좀 보내줘', []);
    expect(result.is_smishing).toBe(true);
    expect(result.reasons).toContain('문자 학습 모델이 없어 규칙과 링크 검사만으로 판단했습니다.');
  });
});

describe('bandScore', () => {
  it('puts the calibrated cuts on the score bands and keeps the order', () => {
    const levels = { uncertain: 0.6, likely: 0.8, firm: 0.9 };
    expect(bandScore(0.6, levels)).toBeCloseTo(SCORE_BANDS.uncertain);
    expect(bandScore(0.8, levels)).toBeCloseTo(SCORE_BANDS.likely);
    expect(bandScore(0.9, levels)).toBeCloseTo(SCORE_BANDS.firm);
    expect(bandScore(0, levels)).toBe(0);
    expect(bandScore(1, levels)).toBe(1);
    const samples = Array.from({ length: 101 }, (_, i) => bandScore(i / 100, levels));
    expect(samples).toEqual([...samples].sort((a, b) => a - b));
  });
});
