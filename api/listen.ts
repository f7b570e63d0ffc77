import type { Server } from 'node:http';

/** A start-up failure whose message already tells the user what to do (printed without a stack). */
export class StartupError extends Error {
  override name = 'StartupError';
}

/** Listens, turning the usual operator mistakes (a taken or privileged port) into a bilingual hint. */
export async function listenOrExplain(server: Server, port: number, host: string, variable = 'PORT'): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject).listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((error: NodeJS.ErrnoException) => {
    throw explain(error, port, host, variable) ?? error;
  });
}

function explain(error: NodeJS.ErrnoException, port: number, host: string, variable: string): StartupError | undefined {
  const next = port === 0 ? 3001 : port + 1;
  if (error.code === 'EADDRINUSE') {
    return new StartupError(
      `Port ${port} on ${host} is already in use (another AI Utility Hub or another program). ` +
        `Stop it, or choose a free port with ${variable}, e.g. \`${variable}=${next} npm start\`.\n` +
        `포트 ${port}번을 이미 다른 프로그램이 쓰고 있습니다. 그 프로그램을 멈추거나 ` +
        `${variable} 환경 변수로 비어 있는 포트를 지정하세요. 예: \`${variable}=${next} npm start\``,
    );
  }
  if (error.code === 'EACCES') {
    return new StartupError(
      `Port ${port} needs administrator rights. Choose a port above 1023 with ${variable}, e.g. \`${variable}=3000 npm start\`.\n` +
        `포트 ${port}번은 관리자 권한이 있어야 열 수 있습니다. PORT 환경 변수로 1024 이상의 포트를 지정하세요. 예: \`PORT=3000 npm start\``,
    );
  }
  if (error.code === 'EADDRNOTAVAIL') {
    return new StartupError(
      `HOST ${host} is not an address of this machine. Use 0.0.0.0 (every interface) or 127.0.0.1.\n` +
        `HOST에 지정한 주소(${host})는 이 컴퓨터의 주소가 아닙니다. 0.0.0.0(모든 인터페이스)이나 127.0.0.1로 지정하세요.`,
    );
  }
  return undefined;
}
