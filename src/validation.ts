import { z } from 'zod';
import { invalidInput } from './errors.js';
import { koreanIssueMessage } from './validation-messages.js';

/** Korean validation messages for every schema of the service (HTTP and bots alike). */
z.config({ customError: koreanIssueMessage });

/** Parses caller input with an operation's schema; a failure is a 400 naming the field. */
export function parseInput<T extends z.ZodType>(schema: T, raw: unknown): z.output<T> {
  const result = schema.safeParse(raw ?? {});
  if (!result.success) throw invalidInput(result.error);
  return result.data;
}
