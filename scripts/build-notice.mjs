// `npm start` step 1: say what the silent first build is doing (later starts skip the build).
import { existsSync } from 'node:fs';

if (!existsSync(new URL('../dist/api/server.js', import.meta.url))) {
  process.stdout.write(
    'AI Utility Hub: first start, compiling TypeScript into dist/ (about 20-40 s; later starts skip this)...\n' +
      'AI Utility Hub: 첫 실행이라 TypeScript를 dist/로 컴파일합니다 (20~40초, 다음부터는 건너뜁니다)...\n',
  );
}
