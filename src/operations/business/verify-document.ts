import { AppError } from '../../errors.js';
import type { Operation } from '../../platform/execute.js';
import type { ocrIdcardSchema } from '../ocr-idcard/ocr-idcard.schema.js';
import type { OcrIdcardOutput } from '../ocr-idcard/ocr-idcard.js';
import type { BusinessChecks } from './business-checks.js';
import { businessNumberProblem, compactBusinessNumber } from './business-number.js';
import { openingDate, type DocumentVerification } from './business.schema.js';

type Reader = Operation<typeof ocrIdcardSchema, OcrIdcardOutput>;

/**
 * The reader with `verify: true`: a business certificate's number (never a resident number) is
 * checked with the NTS after reading, and, when the representative and the opening date were
 * read, validated with them. A failing NTS leaves the fields read and says so in `verification`;
 * the check is part of the reading's one call.
 */
export function withBusinessVerification(read: Reader, checks: BusinessChecks): Reader {
  return {
    ...read,
    async run(ctx, input) {
      const output = await read.run(ctx, input);
      if (!input.verify) return output;
      return { ...output, verification: await verify(checks, output.info, ctx) };
    },
  };
}

async function verify(
  checks: BusinessChecks,
  info: OcrIdcardOutput['info'],
  ctx: Parameters<Reader['run']>[0],
): Promise<DocumentVerification> {
  if (!checks.available) return 'unavailable';
  if (info.type !== '사업자등록증') return { checked: false, reason: '사업자등록증이 아니어서 국세청 확인을 하지 않았습니다.' };
  const digits = compactBusinessNumber(info.id_number);
  const problem = businessNumberProblem(digits);
  if (problem) return { checked: false, reason: `읽은 사업자등록번호로 확인할 수 없습니다: ${problem}` };
  const opened = openingDate.safeParse(info.issue_date);
  try {
    const [status] = await checks.status([digits], ctx.logger, ctx.signal);
    const validation =
      opened.success && info.representative
        ? await checks.validate(
            { b_no: digits, start_dt: opened.data, p_nm: info.representative, ...(info.name ? { b_nm: info.name } : {}) },
            ctx.logger,
            ctx.signal,
          )
        : null;
    return { checked: true, status: status!, validation };
  } catch (error) {
    if (!(error instanceof AppError) || error.status < 500) throw error;
    return { checked: false, reason: `국세청 확인에 실패했습니다: ${error.message} 읽은 항목은 그대로 돌려드립니다.` };
  }
}
