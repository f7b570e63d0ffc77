import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One message as the server received it: the envelope, the headers and the decoded text parts. */
export interface ReceivedMail {
  from: string;
  to: string[];
  user: string | undefined;
  headers: string;
  /** Each text part decoded (quoted-printable or base64) to a string, by its content type. */
  parts: Array<{ type: string; body: string }>;
}

export interface FakeSmtp {
  /** `smtp://user:pass@127.0.0.1:port`, for SMTP_URL. */
  url: string;
  mails: ReceivedMail[];
  /** Resolves with the next mail received (or one already waiting past `seen`). */
  next(seen?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/**
 * A local SMTP server (nodemailer's own `smtp-server`): it requires AUTH PLAIN/LOGIN with the
 * user and password of its URL, as a real submission server does, and records every message.
 * STARTTLS is off: the fake has no certificate a client would trust.
 */
export async function startFakeSmtp(credentials = { user: 'hub', pass: 's3cret-smtp' }): Promise<FakeSmtp> {
  const mails: ReceivedMail[] = [];
  const waiting: Array<() => void> = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === credentials.user && auth.password === credentials.pass) callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          user: typeof session.user === 'string' ? session.user : undefined,
          ...parseMime(raw),
        });
        waiting.splice(0).forEach((wake) => wake());
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://${credentials.user}:${credentials.pass}@127.0.0.1:${port}`,
    mails,
    async next(seen = mails.length) {
      while (mails.length <= seen) await new Promise<void>((resolve) => waiting.push(resolve));
      return mails[seen]!;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Headers, and the text parts of a (possibly multipart) message, decoded. Enough for what nodemailer writes. */
function parseMime(raw: string): { headers: string; parts: Array<{ type: string; body: string }> } {
  const [headers = '', body = ''] = splitHead(raw);
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(headers)?.[1];
  const sections = boundary
    ? body
        .split(`--${boundary}`)
        .slice(1, -1)
        .map((section) => splitHead(section.replace(/^\r\n/, '')))
    : [[headers, body] as const];
  const parts = sections.map(([head = '', content = '']) => {
    const type = /content-type:\s*([^;\r\n]+)/i.exec(head)?.[1]?.trim().toLowerCase() ?? 'text/plain';
    const encoding = /content-transfer-encoding:\s*(\S+)/i.exec(head)?.[1]?.toLowerCase();
    const decoded =
      encoding === 'base64'
        ? Buffer.from(content.replace(/\s+/g, ''), 'base64').toString('utf8')
        : encoding === 'quoted-printable'
          ? Buffer.from(
              content.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
              'latin1',
            ).toString('utf8')
          : content;
    return { type, body: decoded };
  });
  return { headers, parts };
}

function splitHead(text: string): [string, string] {
  const at = text.indexOf('\r\n\r\n');
  return at < 0 ? [text, ''] : [text.slice(0, at), text.slice(at + 4)];
}
