import { describe, expect, it } from 'vitest';
import { decodeText, documentKind, joinSpacedSyllables } from '../src/providers/documents/read-document.js';
import { parsePageUrl } from '../src/operations/chatbot/page-fetch.js';
import { threadText } from '../bots/commands/save-thread.js';

describe('documentKind', () => {
  it('goes by the extension, checked against the bytes', () => {
    expect(documentKind('a.PDF', Buffer.from('%PDF-1.7'))).toBe('pdf');
    expect(documentKind('noext', Buffer.from('%PDF-1.7'))).toBe('pdf');
    expect(documentKind('a.docx', Buffer.from('PK\u0003\u0004'))).toBe('docx');
    expect(documentKind('README.md', Buffer.from('# a'))).toBe('markdown');
    expect(documentKind('a.htm', Buffer.from('<p>'))).toBe('html');
    expect(documentKind('a.txt', Buffer.from('hello'))).toBe('text');
    expect(() => documentKind('a.pdf', Buffer.from('hello'))).toThrow(/PDF 파일이 아닙니다/);
    expect(() => documentKind('a.txt', Buffer.from('%PDF-1.4'))).toThrow(/텍스트 파일이 아닙니다/);
    expect(() => documentKind('a.txt', Buffer.from([0x41, 0, 0x42]))).toThrow(/텍스트 파일이 아닙니다/);
    expect(() => documentKind('보고서.hwp', Buffer.from('x'))).toThrow(/PDF나 DOCX/);
    expect(() => documentKind('a.exe', Buffer.from('MZ'))).toThrow(/PDF, DOCX/);
  });
});

describe('decodeText', () => {
  it('reads UTF-8 (BOM dropped), UTF-16 with a BOM, and CP949', () => {
    expect(decodeText(Buffer.from('\ufeff안녕'))).toBe('안녕');
    expect(decodeText(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('안녕', 'utf16le')]))).toBe('안녕');
    expect(decodeText(Buffer.from([0xbe, 0xc8, 0xb3, 0xe7]))).toBe('안녕'); // 안녕 in CP949
  });
});

describe('joinSpacedSyllables', () => {
  it('joins a line read syllable by syllable and leaves normal lines alone', () => {
    expect(joinSpacedSyllables('서 버 실 출입 카 드 발 급')).toBe('서버실 출입 카드발급');
    expect(joinSpacedSyllables('이 두 개는 정상 문장의 예입니다')).toBe('이 두 개는 정상 문장의 예입니다');
    expect(joinSpacedSyllables('ID 1 2 3')).toBe('ID 1 2 3');
  });
});

describe('parsePageUrl', () => {
  it('takes absolute http(s) only, without credentials', () => {
    expect(parsePageUrl(' https://example.com/a ').href).toBe('https://example.com/a');
    for (const bad of ['example.com', 'ftp://example.com', 'http://u:p@example.com', 'javascript:alert(1)', 'file:///etc/passwd'])
      expect(() => parsePageUrl(bad), bad).toThrow();
  });
});

describe('threadText', () => {
  const slack = { mentions: /<@([UW][A-Z0-9]+)(?:\|[^>]*)?>/g, decode: (text: string) => text.replace(/&lt;/g, '<') };
  const messages = [
    { author: 'U1', text: '휴가 신청은 어디서 하나요?' },
    { author: 'U2', text: '<@U1|kim> 그룹웨어에서 합니다. <@U9> 님도 참고' },
    { bot: true, text: '안내 봇 메시지' },
    { author: 'U3', text: '&lt;결재&gt; 후 확정됩니다.' },
    { author: 'U1', text: '   ' },
  ];
  it('names authors by role, mentions too, and drops empty messages', () => {
    expect(threadText(messages, 'roles', slack)).toBe(
      '질문자: 휴가 신청은 어디서 하나요?\n\n답변자 1: @질문자 그룹웨어에서 합니다. @(사용자) 님도 참고\n\n봇: 안내 봇 메시지\n\n답변자 2: <결재&gt; 후 확정됩니다.',
    );
  });
  it('names nobody when the workspace says so', () => {
    const text = threadText(messages, 'none', slack);
    expect(text).not.toMatch(/질문자|답변자|U1|kim/);
    expect(text.split('\n\n')[1]).toBe('@(사용자) 그룹웨어에서 합니다. @(사용자) 님도 참고');
  });
  it('keeps whole messages up to the entry limit', () => {
    const long = Array.from({ length: 50 }, (_, i) => ({ author: `U${i % 3}`, text: '가'.repeat(1000) }));
    const text = threadText(long, 'none', slack);
    expect([...text].length).toBeLessThanOrEqual(20_000);
    expect(text.split('\n\n').every((part) => part === '가'.repeat(1000))).toBe(true);
  });
});
