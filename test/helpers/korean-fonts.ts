import { GlobalFonts } from '@napi-rs/canvas';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * The Korean fonts the tests, scripts and benches draw with: Google Fonts' files as the Expo
 * team publishes them on npm (development dependencies), loaded by path. No system font is
 * needed, and a drawing is the same on every machine whatever fonts that machine has.
 *
 * Two renderers draw. librsvg (sharp's SVG input) finds fonts through fontconfig, which reads
 * the file `FONTCONFIG_FILE` names: vitest.config.ts sets it for the test workers, and importing
 * this module sets it for a script that has not (before anything in the process draws).
 * @napi-rs/canvas takes the files themselves (`registerCanvasFonts`).
 */

export interface KoreanFont {
  family: string;
  /** Files of the weights drawn (400 and 700 where the family has a bold), inside its package. */
  files: string[];
}

const require = createRequire(import.meta.url);
const packageFile = (name: string, file: string) => join(dirname(require.resolve(`${name}/package.json`)), file);

const family = (name: string, packageName: string, ...files: string[]): KoreanFont => ({
  family: name,
  files: files.map((file) => packageFile(packageName, file)),
});

/**
 * Gothic and myeongjo (serif) faces of different designs, as Korean documents are printed.
 * Google's Nanum and Gowun files have no hanja: Noto Sans KR draws those (the fallback below).
 */
export const KOREAN_FONTS: readonly KoreanFont[] = [
  family('NanumGothic', '@expo-google-fonts/nanum-gothic', '400Regular/NanumGothic_400Regular.ttf', '700Bold/NanumGothic_700Bold.ttf'),
  family(
    'NanumMyeongjo',
    '@expo-google-fonts/nanum-myeongjo',
    '400Regular/NanumMyeongjo_400Regular.ttf',
    '700Bold/NanumMyeongjo_700Bold.ttf',
  ),
  family('Noto Sans KR', '@expo-google-fonts/noto-sans-kr', '400Regular/NotoSansKR_400Regular.ttf', '700Bold/NotoSansKR_700Bold.ttf'),
  family('Gowun Dodum', '@expo-google-fonts/gowun-dodum', '400Regular/GowunDodum_400Regular.ttf'),
  family('Gowun Batang', '@expo-google-fonts/gowun-batang', '400Regular/GowunBatang_400Regular.ttf', '700Bold/GowunBatang_700Bold.ttf'),
  family('Song Myung', '@expo-google-fonts/song-myung', '400Regular/SongMyung_400Regular.ttf'),
];

/** Fails with what to do when a font file is missing (an install without development dependencies). */
export function assertKoreanFonts(): void {
  const missing = KOREAN_FONTS.flatMap((font) => font.files).filter((file) => !existsSync(file));
  if (missing.length === 0) return;
  throw new Error(`Korean test fonts are missing (${missing.join(', ')}): run \`npm install\` (they are development dependencies).`);
}

/**
 * A fontconfig file that knows only these fonts (each weight's folder holds one file), with the
 * generic families mapped onto them; written once under the temporary directory, named by its content.
 */
export function fontconfigFile(): string {
  assertKoreanFonts();
  const folders = [...new Set(KOREAN_FONTS.flatMap((font) => font.files.map((file) => dirname(file))))];
  const prefer = (generic: string, ...families: string[]) =>
    `  <alias><family>${generic}</family><prefer>${families.map((name) => `<family>${name}</family>`).join('')}</prefer></alias>`;
  const text = [
    '<?xml version="1.0"?>',
    '<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">',
    '<fontconfig>',
    ...folders.map((folder) => `  <dir>${folder}</dir>`),
    prefer('sans-serif', 'NanumGothic', 'Noto Sans KR'),
    prefer('serif', 'NanumMyeongjo', 'Noto Sans KR'),
    prefer('monospace', 'NanumGothic', 'Noto Sans KR'),
    `  <cachedir>${join(tmpdir(), 'aihub-test-fonts', 'cache')}</cachedir>`,
    '</fontconfig>',
    '',
  ].join('\n');
  const file = join(tmpdir(), 'aihub-test-fonts', `fonts-${createHash('sha256').update(text).digest('hex').slice(0, 12)}.conf`);
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, text);
    renameSync(partial, file);
  }
  return file;
}

// A script (eval, bench) run outside Vitest: fontconfig reads the variable when the process first
// draws text, which is after its imports. Under Vitest the configuration has set it already.
process.env.FONTCONFIG_FILE ??= fontconfigFile();

let registered = false;

/** Registers every font file with @napi-rs/canvas under its family name (once per process). */
export function registerCanvasFonts(): void {
  if (registered) return;
  for (const font of KOREAN_FONTS) for (const file of font.files) GlobalFonts.registerFromPath(file, font.family);
  registered = true;
}
