import { describe, expect, it } from 'vitest';
import { detectLanguage } from '../src/operations/translate/language-detect.js';

/**
 * Short everyday strings in the four languages, written for this table (greetings,
 * chat, notices, mixed scripts, numbers, URLs, Han-only Japanese and Chinese).
 * The detector must get at least 95% right.
 */
const TABLE: Array<[text: string, expected: 'ko' | 'en' | 'ja' | 'zh']> = [
  // Korean
  ['안녕하세요', 'ko'],
  ['내일 회의는 3시에 시작합니다.', 'ko'],
  ['배송이 언제 도착하나요?', 'ko'],
  ['ㅋㅋㅋ 진짜 웃기다', 'ko'],
  ['오늘 점심 뭐 먹을래?', 'ko'],
  ['iPhone 16 예약 판매 시작', 'ko'],
  ['서울특별시 강남구 테헤란로 123', 'ko'],
  ['大韓民國 헌법 제1조', 'ko'],
  ['https://example.com 이 링크 확인해 주세요', 'ko'],
  ['결제 금액은 15,000원입니다', 'ko'],
  ['감사합니다!', 'ko'],
  ['API 키를 재발급했습니다', 'ko'],
  ['회의록 공유 부탁드려요', 'ko'],
  ['비밀번호를 잊으셨나요?', 'ko'],
  ['주말 잘 보내세요 :)', 'ko'],
  ['택배 기사님께 문 앞에 두라고 전해 주세요', 'ko'],
  ['CJ대한통운 송장번호 1234-5678-9012', 'ko'],
  ['좋아요', 'ko'],
  ['Slack 채널에 공지 올렸어요', 'ko'],
  ['네', 'ko'],
  // English
  ['Hello, how are you?', 'en'],
  ['The meeting starts at 3 pm tomorrow.', 'en'],
  ['Please check the attached file.', 'en'],
  ['Where is my package?', 'en'],
  ['Thanks!', 'en'],
  ['Your order #12345 has shipped.', 'en'],
  ['Reset your password here: https://example.com/reset', 'en'],
  ['lol that was hilarious', 'en'],
  ['We visited Tokyo (東京) last spring.', 'en'],
  ['I love kimchi and bibimbap', 'en'],
  ['OK', 'en'],
  ['Happy birthday, Minji!', 'en'],
  ['Can you send me the report by Friday?', 'en'],
  ['The quick brown fox jumps over the lazy dog', 'en'],
  ['Meeting moved to Room 402', 'en'],
  ['Sale ends tonight — 50% off everything', 'en'],
  ['Good morning', 'en'],
  ['Call me when you land', 'en'],
  ['See you at Gangnam station', 'en'],
  ['Is this URL safe?', 'en'],
  // Japanese
  ['こんにちは', 'ja'],
  ['明日の会議は3時からです。', 'ja'],
  ['ありがとうございます', 'ja'],
  ['荷物はいつ届きますか？', 'ja'],
  ['東京駅で待っています', 'ja'],
  ['カタカナのテスト', 'ja'],
  ['iPhoneを買いました', 'ja'],
  ['よろしくお願いします', 'ja'],
  ['今日は天気がいいですね', 'ja'],
  ['ラーメン食べたい', 'ja'],
  ['営業時間', 'ja'],
  ['天気予報', 'ja'],
  ['東京都渋谷区', 'ja'],
  ['お疲れ様でした！', 'ja'],
  ['会議室を予約しました', 'ja'],
  ['京都駅', 'ja'],
  ['日本語能力試験', 'ja'],
  ['メールを確認してください', 'ja'],
  ['謹賀新年', 'ja'],
  ['すみません、遅れます', 'ja'],
  // Chinese
  ['你好', 'zh'],
  ['明天的会议三点开始。', 'zh'],
  ['谢谢你的帮助', 'zh'],
  ['我的快递什么时候到？', 'zh'],
  ['这个链接安全吗？', 'zh'],
  ['北京烤鸭很好吃', 'zh'],
  ['我们下周见', 'zh'],
  ['中华人民共和国', 'zh'],
  ['今天天气很好', 'zh'],
  ['请把报告发给我', 'zh'],
  ['新年快乐', 'zh'],
  ['這是我的書', 'zh'],
  ['電腦壞了', 'zh'],
  ['人工智能', 'zh'],
  ['iPhone 16 发布了', 'zh'],
  ['我爱你', 'zh'],
  ['上海市浦东新区', 'zh'],
  ['天气预报', 'zh'],
  ['没问题', 'zh'],
  ['經濟發展很快', 'zh'],
];

describe('detectLanguage', () => {
  it(`gets at least 95% of ${TABLE.length} short ko/en/ja/zh strings right`, async () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(60);
    const wrong: string[] = [];
    for (const [text, expected] of TABLE) {
      const detected = await detectLanguage(text);
      if (detected !== expected) wrong.push(`${text} → ${detected} (expected ${expected})`);
    }
    const accuracy = 1 - wrong.length / TABLE.length;
    if (wrong.length) console.info(`language detection ${(accuracy * 100).toFixed(1)}%; misses:\n  ${wrong.join('\n  ')}`);
    expect(accuracy).toBeGreaterThanOrEqual(0.95);
  });

  it('finds no language in text without letters', async () => {
    expect(await detectLanguage('12345 !!! 😀')).toBeUndefined();
    expect(await detectLanguage('https://example.com/abc')).toBeUndefined();
  });
});
