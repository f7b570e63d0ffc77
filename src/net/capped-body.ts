/**
 * Reading what an upstream sends, with a ceiling. Every body the service reads from outside
 * (tracker, LLM, feeds, chat files, webhook answers, short-link hops) goes through one of these,
 * so an endless or oversized answer stops at the cap and its memory is given back at once.
 */

/** The body went past its cap; reading stopped and the stream was cancelled. */
export class BodyTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`the answer is larger than ${limitBytes} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

/** A web `ReadableStream` (fetch) or a Node `Readable`: both iterate as byte chunks. */
export type ByteSource = AsyncIterable<Uint8Array>;

/**
 * Reads a whole body up to `limitBytes`. Past the cap it stops (leaving the loop cancels a web
 * stream and destroys a Node stream) and throws `BodyTooLargeError`; nothing beyond one chunk
 * over the cap is ever held.
 */
export async function readCappedBody(body: ByteSource | null | undefined, limitBytes: number): Promise<Buffer> {
  if (!body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of body) {
    received += chunk.byteLength;
    if (received > limitBytes) throw new BodyTooLargeError(limitBytes);
    chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  }
  return Buffer.concat(chunks, received);
}

/** `readCappedBody` decoded as UTF-8. */
export async function readCappedText(body: ByteSource | null | undefined, limitBytes: number): Promise<string> {
  return (await readCappedBody(body, limitBytes)).toString('utf8');
}

/**
 * The same response with a body that errors with `BodyTooLargeError` once more than
 * `limitBytes` arrive, for clients that read the body themselves (the openai SDK, GraphQL
 * clients): hand them `cappedFetch(limit)` as their `fetch`.
 */
export function capResponse(response: Response, limitBytes: number): Response {
  if (!response.body) return response;
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limitBytes) {
    void response.body.cancel();
    throw new BodyTooLargeError(limitBytes);
  }
  let received = 0;
  const limiter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      received += chunk.byteLength;
      if (received > limitBytes) controller.error(new BodyTooLargeError(limitBytes));
      else controller.enqueue(chunk);
    },
  });
  return new Response(response.body.pipeThrough(limiter), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/** A `fetch` whose every response body is capped at `limitBytes` (see `capResponse`). */
export function cappedFetch(limitBytes: number, baseFetch: typeof fetch = fetch): typeof fetch {
  return async (input, init) => capResponse(await baseFetch(input, init), limitBytes);
}
