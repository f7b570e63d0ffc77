import { apiLabel } from '../../src/operations/catalog.js';
import { z } from 'zod';
import { notConfigured } from '../../src/operations/business/business-checks.js';
import { businessStatusAnswer, businessValidationOutput } from '../../src/operations/business/business.schema.js';
import { ntsFailure } from '../../src/providers/nts.js';
import { AppError } from '../../src/errors.js';
import { quotaExceeded, subscriptionRequired } from '../../src/platform/subscriptions.js';
import type { Runtime } from '../../src/runtime.js';
import { successEnvelope } from '../http-answer.js';
import { defineRoute, type Route } from '../route.js';
import { RATE_LIMIT_HEADERS } from './operations.js';

const EXAMPLE_RENEWAL = new Date('2026-11-30T15:00:00.000Z');
const envelope = <T extends z.ZodObject>(schema: T) =>
  schema.extend({ success: z.literal(true), api: z.literal('ocr-idcard'), remaining: z.number().int() });

/**
 * CONTRACT §5: the National Tax Service's business checks, `ocr-idcard` calls (one per number):
 * served by the operation door like the eight operations.
 */
export function businessRoutes(runtime: Runtime): Route[] {
  const { status, validate } = runtime.business;
  const errors = [
    subscriptionRequired('ocr-idcard', apiLabel('ocr-idcard')),
    quotaExceeded('ocr-idcard', EXAMPLE_RENEWAL, 721673, apiLabel('ocr-idcard')),
    notConfigured(),
    ntsFailure('국세청 조회 서버에 연결하지 못했습니다.'),
    new AppError('RATE_LIMITED', '국세청 조회 요청이 몰려 잠시 기다려야 합니다. 잠시 후 다시 시도하세요.', {}, 1),
  ];
  const active = {
    b_no: '124-81-00998',
    status: 'active' as const,
    status_text: '계속사업자',
    tax_type: '부가가치세 일반과세자',
    tax_type_code: '01',
    closed_at: null,
  };
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/business/status',
      operationId: 'checkBusinessStatus',
      tag: '사업자 확인',
      summary: '사업자등록번호로 국세청 사업자 상태 조회 (계속·휴업·폐업, 과세 유형; 번호 하나에 신분증 OCR 1회)',
      auth: 'key',
      body: { schema: status.schema, example: { b_no: ['124-81-00998'] }, validatedBy: 'core' },
      answers: {
        200: {
          description: '번호마다 상태 (보낸 순서대로)',
          schema: envelope(businessStatusAnswer),
          example: successEnvelope('ocr-idcard', { businesses: [active] }, 999),
          headers: RATE_LIMIT_HEADERS,
        },
      },
      errors,
      operation: status,
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/business/validate',
      operationId: 'validateBusiness',
      tag: '사업자 확인',
      summary: '사업자등록정보 진위확인: 번호·개업일자·대표자 성명(과 보낸 다른 항목)이 국세청 정보와 맞는지, 맞지 않는 항목은 무엇인지',
      auth: 'key',
      body: {
        schema: validate.schema,
        example: { b_no: '124-81-00998', start_dt: '1969-01-13', p_nm: '홍길동', b_nm: '주식회사 예시' },
        validatedBy: 'core',
      },
      answers: {
        200: {
          description: '진위확인 결과',
          schema: envelope(businessValidationOutput),
          example: successEnvelope(
            'ocr-idcard',
            {
              b_no: '124-81-00998',
              valid: false,
              mismatched_fields: ['b_nm' as const],
              message: '사업자등록번호, 개업일자, 대표자 성명은 일치하지만 상호가 국세청 정보와 다릅니다.',
              status: active,
            },
            998,
          ),
          headers: RATE_LIMIT_HEADERS,
        },
      },
      errors,
      operation: validate,
    }),
  ];
}
