import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { expect } from 'vitest';

/** The parts of the served OpenAPI document the conformance tests read. */
export type OpenApiDoc = { paths: Record<string, Record<string, any>>; components: { schemas: Record<string, object> } };

/**
 * Validates values against schemas of the document (Ajv, JSON Schema 2020-12, `$ref`s into its
 * components): the problems as text, or undefined when the value fits.
 */
export function schemaValidator(doc: Pick<OpenApiDoc, 'components'>): (schema: object, value: unknown) => string | undefined {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ $id: 'doc', components: doc.components });
  // Many operations share a schema (the error body): each is compiled once.
  const cache = new Map<string, ValidateFunction>();
  return (schema, value) => {
    const text = JSON.stringify(schema);
    let validate = cache.get(text);
    if (!validate) cache.set(text, (validate = ajv.compile(JSON.parse(text.replaceAll('"#/components/', '"doc#/components/')))));
    return validate(value) ? undefined : ajv.errorsText(validate.errors);
  };
}

/**
 * Holds a real answer against the document: its status must be documented for that operation,
 * and a JSON body must fit that status's schema.
 */
export function answerChecker(doc: OpenApiDoc): (template: string, method: string, status: number, body: unknown) => void {
  const problemsOf = schemaValidator(doc);
  return (template, method, status, body) => {
    const where = `${method.toUpperCase()} ${template} ${status}`;
    const response = doc.paths[template]?.[method]?.responses[String(status)];
    expect(response, `${where} is not documented: ${JSON.stringify(body)}`).toBeDefined();
    const schema = response.content?.['application/json']?.schema;
    if (schema) expect(problemsOf(schema, body), `${where}: ${JSON.stringify(body)}`).toBeUndefined();
  };
}

/** One HTTP call as a client sends it (no redirect followed); a JSON answer is parsed. */
export async function callRoute(
  base: string,
  method: string,
  path: string,
  { headers = {}, body }: { headers?: Record<string, string>; body?: string | Uint8Array } = {},
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}${path}`, { method: method.toUpperCase(), headers, body, redirect: 'manual' });
  const text = await res.text();
  return { status: res.status, body: res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
}

/** Every operation of the document as `[template, method, operation]`. */
export function documentedOperations(doc: OpenApiDoc): [string, string, any][] {
  return Object.entries(doc.paths).flatMap(([template, item]) =>
    Object.entries(item).map(([method, operation]): [string, string, any] => [template, method, operation]),
  );
}
