import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectPath } from '../../src/paths.js';

/**
 * `../shared/data/messages-kr` (read in place, never copied): half of KOR_phishing_Detect-Dataset
 * (Kim et al., Information 15(5):265, 2024) and legitimate notification texts of 7 Korean senders.
 */
export const MESSAGES_DIR = process.env.MESSAGES_KR_DIR ?? projectPath('..', 'shared', 'data', 'messages-kr');
export const MESSAGES_CITATION =
  'S. Kim, J. Park, H. Ahn, Y. Lee, "Detection of Korean Phishing Messages Using Biased Discriminant Analysis under Extreme Class Imbalance Problem", Information 15(5):265, 2024 (KOR_phishing_Detect-Dataset, github Ez-Sy01/KOR_phishing_Detect-Dataset @ 6e403ed)';

export interface LabelledMessage {
  index: number;
  scam: boolean;
  text: string;
}

export interface Notification {
  /** The sending service (`owner/repo` of the row's source). */
  sender: string;
  text: string;
}

/** Folds are a hash of the message's `index`, so a fold never depends on file order. */
export const FOLDS = 5;
export function foldOf(index: number): number {
  let hash = 0x811c9dc5;
  for (const char of String(index)) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193);
  return (hash >>> 0) % FOLDS;
}

export function messagesAvailable(): boolean {
  return existsSync(join(MESSAGES_DIR, 'kor-phishing-messages-part-a.tsv'));
}

/** A TSV cell: line breaks written `\n`, a backslash `\\`. */
function unescapeCell(cell: string): string {
  return cell.replace(/\\(n|\\)/g, (_, c: string) => (c === 'n' ? '\n' : '\\'));
}

function rowsOf(file: string): string[][] {
  return readFileSync(join(MESSAGES_DIR, file), 'utf8')
    .split('\n')
    .slice(1)
    .filter((line) => line.length > 0)
    .map((line) => line.split('\t'));
}

export function readLabelledMessages(): LabelledMessage[] {
  return rowsOf('kor-phishing-messages-part-a.tsv').map(([label, index, ...text]) => ({
    index: Number(index),
    scam: label === 'phishing',
    text: unescapeCell(text.join('\t')),
  }));
}

export function readNotifications(): Notification[] {
  return rowsOf('legit-notifications-part-a.tsv').map(([source, ...text]) => ({
    sender: (source ?? '').split('@')[0] ?? '',
    text: unescapeCell(text.join('\t')),
  }));
}
