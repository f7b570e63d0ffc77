import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScamScripts, SCAM_SCRIPTS } from '../src/operations/url-scan/scam-scripts.js';
import { SCAM_TYPES } from '../src/operations/url-scan/scam-types.js';
import { MessageModel } from '../src/operations/url-scan/model/message-model.js';
import { loadMessageModel, SHIPPED_MESSAGE_MODEL } from '../src/operations/url-scan/model/message-model-file.js';
import { trainAndWrite } from '../scripts/train-message-model.js';
import raw from '../src/operations/url-scan/scam-scripts.json' with { type: 'json' };

// A small labelled set written for this test: scams and ordinary lines in the shapes the real data has.
const scams = [
  '엄마 나 폰 고장나서 수리 맡겼어 이 번호로 문자줘',
  '아빠 나 액정 깨져서 임시폰이야 급하게 상품권 좀 사줄 수 있어?',
  '누나 나 폰 고장나서 컴퓨터로 카톡 중이야 급히 송금할 데가 있어 대신 보내줘',
  '[국외발신] 해외승인 890,000원 결제완료 본인 아닐시 070-1234-5678',
  '[Web발신] 택배 주소지 불일치로 반송 예정 주소확인 bit.ly/xYz12',
  '엄마 휴대폰 고장나서 새 카톡 만들었어 이번호로 추가하고 톡줘',
];
const ordinary = [
  '오늘 저녁 뭐 먹을까',
  '내일 회의 몇 시였지?',
  '사진 잘 받았어 고마워',
  '주말에 등산 갈 사람',
  '엄마 오늘 늦게 들어가요',
  '아빠 생신 선물 뭐가 좋을까',
  '택배 왔던데 네 거야?',
  '점심 맛있게 드세요',
];
const notifications = [
  '[바른상점] 김하나님 주문하신 상품이 배송되었습니다. 운송장 512345678901',
  '[하나로은행] 입금 300,000원 박민수 잔액 1,000,000원',
];

describe('the message model', () => {
  it('learns to separate scams from ordinary lines on a small written set', () => {
    const model = MessageModel.train(
      [...scams.map((text) => ({ text, scam: true })), ...ordinary.map((text) => ({ text, scam: false }))],
      {
        name: 'message-model',
        trainedAt: '2026-11-28T00:00:00Z',
        examples: { scam: 6, ordinary: 8, notifications: 0 },
        levels: { uncertain: 0.5, likely: 0.5, firm: 0.5 },
        data: 'test',
        citation: 'test',
      },
      { epochs: 30 },
    );
    expect(model.predict('엄마 나 폰 고장나서 이 번호로 문자줘 급하게 송금 부탁해')).toBeGreaterThan(0.5);
    expect(model.predict('오늘 저녁에 등산 갈 사람')).toBeLessThan(0.5);
  });

  it("loads the shipped model, with the data's citation and out-of-fold levels in order", async () => {
    const model = await loadMessageModel(undefined);
    expect(model.meta.citation).toMatch(/Information 15\(5\):265, 2024/);
    expect(model.meta.examples.scam).toBeGreaterThan(200);
    const { uncertain, likely, firm } = model.meta.levels;
    expect(uncertain).toBeLessThanOrEqual(likely);
    expect(likely).toBeLessThanOrEqual(firm);
  });

  it('refuses weights of another feature version or size, naming the file', async () => {
    const meta = JSON.parse(await readFile(SHIPPED_MESSAGE_MODEL, 'utf8'));
    expect(() => MessageModel.fromParts({ ...meta, featureVersion: meta.featureVersion + 1 }, Buffer.alloc(4 << meta.featureBits))).toThrow(
      /retrain/,
    );
    expect(() => MessageModel.fromParts(meta, Buffer.alloc(16))).toThrow(/bytes of weights/);
    await expect(loadMessageModel('/nonexistent/message-model.json')).rejects.toThrow(
      /MESSAGE_MODEL \(\/nonexistent\/message-model\.json\)/,
    );
  });

  it('is retrained by the script in one call, which writes weights and metadata but no message text', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'message-model-'));
    try {
      const out = join(dir, 'message-model.json');
      const messages = [...scams, ...ordinary].map((text, index) => ({ index, scam: index < scams.length, text }));
      await trainAndWrite(out, { messages, notifications: notifications.map((text, i) => ({ sender: `s${i}`, text })) }, () => {});
      const model = await MessageModel.load(out);
      expect(model.meta.examples.scam).toBe(scams.length);
      const written = (await readFile(out, 'utf8')) + (await readFile(out.replace(/\.json$/, '.bin'))).toString('latin1');
      for (const text of [...scams, ...ordinary, ...notifications]) expect(written).not.toContain(text);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the scam scripts table', () => {
  it('folds cues as messages are folded and lists every family of the contract but "other"', () => {
    expect(SCAM_SCRIPTS.families.map((f) => f.type).sort()).toEqual(SCAM_TYPES.filter((type) => type !== 'other').sort());
    expect(SCAM_SCRIPTS.senderMarks.flatMap((m) => m.cues)).toContain('[web발신]');
  });

  it('stops on a wrong entry and names it', () => {
    const broken = structuredClone(raw) as { families: { cues: string[]; type: string }[] };
    broken.families[2]!.cues[0] = 'x';
    expect(() => loadScamScripts(broken)).toThrow(/^scam-scripts\.json: families\.2\.cues\.0: /);
    const twice = structuredClone(raw) as { families: { type: string }[] };
    twice.families[1]!.type = twice.families[0]!.type;
    expect(() => loadScamScripts(twice)).toThrow(/families\.1\.type: 'family_impersonation'가 두 번 있습니다/);
  });
});
