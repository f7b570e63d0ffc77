/**
 * Limits every image the reader decodes obeys, whether sent directly or drawn inside a PDF
 * page: more pixels than this are refused before decoding (a decompression bomb costs
 * nothing), and the sent bytes are capped.
 */
export const MAX_IMAGE_PIXELS = 40_000_000;
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
