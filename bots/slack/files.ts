import { AppError } from '../../src/errors.js';
import { downloadImage, MAX_IMAGE_BYTES } from '../commands/download.js';
import type { ImageSource } from '../commands/types.js';

export interface SlackFile {
  id?: string;
  mimetype?: string;
  filetype?: string;
  size?: number;
  url_private?: string;
  url_private_download?: string;
  /** `check_file_info` for a file from a Slack Connect channel: only `files.info` gives the rest. */
  file_access?: string;
}

/** Files the ID reader takes: any image, or a PDF (its first page is read). */
export function isReadableDocument(file: SlackFile): boolean {
  return Boolean(file.mimetype?.startsWith('image/') || file.mimetype === 'application/pdf');
}

/**
 * The file as the bot may read it: a Slack Connect file arrives as `{id, file_access:
 * "check_file_info"}` with no type or URL, and `files.info` fills them in.
 */
export async function resolveSlackFile(file: SlackFile, filesInfo: (id: string) => Promise<{ file?: unknown }>): Promise<SlackFile> {
  if (!file.id || (file.file_access !== 'check_file_info' && file.mimetype && (file.url_private_download || file.url_private))) return file;
  const info = await filesInfo(file.id);
  return { ...file, ...(info.file as SlackFile | undefined), file_access: 'visible' };
}

/**
 * Downloads a Slack file with the bot token, in memory only (the image is never stored).
 * The token is sent only to Slack's own hosts (or the configured API host, for tests).
 */
export function slackImage(file: SlackFile, botToken: string, apiUrl: string): ImageSource {
  return async () => {
    const url = file.url_private_download ?? file.url_private;
    if (!url || !URL.canParse(url)) throw new AppError('INVALID_REQUEST', '이미지 파일을 찾을 수 없습니다.');
    const host = new URL(url).host;
    if (!(host === 'slack.com' || host.endsWith('.slack.com') || host === new URL(apiUrl).host)) {
      throw new AppError('INVALID_REQUEST', 'Slack에 올린 이미지만 읽을 수 있습니다.');
    }
    if ((file.size ?? 0) > MAX_IMAGE_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', '이미지가 너무 큽니다 (최대 10MB).');
    return downloadImage(url, { authorization: `Bearer ${botToken}` });
  };
}
