import { describe, expect, it } from 'vitest';
import { fieldConfidence } from '../src/operations/ocr-idcard/confidence.js';
import { parseDocument } from '../src/operations/ocr-idcard/parse.js';
import type { OcrLine } from '../src/providers/ocr/tesseract-pool.js';

const CERTIFICATE = [
  '사업자등록증',
  '등록번호 : 124-81-00998',
  '상호 : 한빛소프트',
  '대표자 : 이서준',
  '개업연월일 : 2015 년 03 월 02 일',
  '사업장소재지 : 경기도 성남시 분당구 판교역로 235 (삼평동)',
  '사업의 종류 : 업태 종목',
  '음식점업 한식 일반 음식점업',
  '도매 및 소매업 전자상거래 소매업',
];

/** The lines as the engine gives them, each word scored `score` unless `weak` names it. */
const read = (score: number, weak: Record<string, number> = {}): OcrLine[] =>
  CERTIFICATE.map((text, i) => ({
    text,
    confidence: score,
    box: { left: 0, top: i * 40, width: 800, height: 30 },
    words: text.split(' ').map((word) => ({ text: word, confidence: weak[word] ?? score })),
  }));

describe('per-field confidence', () => {
  it('scores 업태 and 종목 read from several rows row by row: well-read rows raise no warning', () => {
    const parsed = parseDocument(CERTIFICATE.join('\n'))!;
    expect(parsed.info.biz_type).toBe('음식점업, 도매 및 소매업');
    const { confidence, warnings } = fieldConfidence(parsed.info, read(92), parsed.warnings);
    expect(confidence.biz_type).toBe(0.92);
    expect(confidence.biz_item).toBe(0.92);
    expect(warnings).toEqual([]);
  });

  it('warns on the field whose one row was read unsure, and on no other', () => {
    const parsed = parseDocument(CERTIFICATE.join('\n'))!;
    const { warnings } = fieldConfidence(parsed.info, read(92, { 전자상거래: 31 }), parsed.warnings);
    expect(warnings.map((w) => [w.field, w.code])).toEqual([['biz_item', 'LOW_CONFIDENCE']]);
    expect(warnings[0]?.message).toMatch(/종목을 확실하게 읽지 못했습니다/);
  });
});
