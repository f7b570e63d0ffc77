import type { Transporter } from 'nodemailer';
import { koreanDateTime } from '../seoul-time.js';

/** One invitation to send: who is invited, by whom, to which team, with what role, and the one-time link. */
export interface InviteMail {
  to: string;
  /** The team's e-mail (its founding owner's): how the invitee knows which team it is. */
  teamEmail: string;
  /** The member who sent the invitation. */
  inviterEmail: string;
  /** The role in words (`{ko: '개발자', en: 'developer'}`): the caller's labels, so this adapter knows no team rules. */
  roleLabel: { ko: string; en: string };
  url: string;
  expiresAt: Date;
}

/**
 * Sends invitation mail (issue 48, `SMTP_URL`). Resolves when the server accepted the message;
 * rejects otherwise. The caller decides what a failure means (the invitation stands).
 */
export interface InviteMailer {
  sendInvite(mail: InviteMail): Promise<void>;
}

export interface SmtpMailerOptions {
  /** `smtp://user:pass@host:port` or `smtps://…`. */
  url: string;
  /** The From header: `AI Utility Hub <no-reply@host>`. */
  from: string;
  /** Connecting, the greeting and each command each wait at most this long, so an invite is never held long. */
  timeoutMs?: number;
}

/** The invitation over SMTP with nodemailer: one connection per message (invitations are rare), no pooling. */
export function createSmtpInviteMailer(options: SmtpMailerOptions): InviteMailer {
  const timeout = options.timeoutMs ?? 10_000;
  // nodemailer is loaded with the first invitation, not at every start (a tenth of a second).
  let transport: Promise<Transporter> | undefined;
  const open = async () => {
    const nodemailer = (await import('nodemailer')).default;
    return nodemailer.createTransport(
      {
        url: options.url,
        connectionTimeout: timeout,
        greetingTimeout: timeout,
        socketTimeout: timeout,
        // Never nodemailer's own logger: it would print the recipient and the message.
        logger: false,
        debug: false,
      },
      { from: options.from },
    );
  };
  return {
    async sendInvite(mail) {
      const { subject, text, html } = inviteMessage(mail);
      await (await (transport ??= open())).sendMail({ to: mail.to, subject, text, html, disableUrlAccess: true, disableFileAccess: true });
    },
  };
}

/** The Korean invitation: plain text and simple HTML, the same words, no images, no tracking. */
export function inviteMessage(mail: InviteMail): { subject: string; text: string; html: string } {
  const role = mail.roleLabel;
  const expires = koreanDateTime(mail.expiresAt);
  const subject = `[AI Utility Hub] ${mail.teamEmail} 팀에 초대되었습니다`;
  const lines = [
    '안녕하세요.',
    '',
    `${mail.inviterEmail} 님이 AI Utility Hub의 ${mail.teamEmail} 팀에 ${role.ko}(${role.en}) 역할로 초대했습니다.`,
    '',
    '아래 링크를 열어 비밀번호를 정하면 팀에 들어갑니다:',
    mail.url,
    '',
    `이 링크는 한 번만 쓸 수 있고 ${expires}(한국 시간)까지 유효합니다.`,
    '초대받을 일이 없다면 이 메일을 무시하세요. 링크를 열지 않으면 아무 일도 일어나지 않습니다.',
  ];
  const e = escapeHtml;
  const html = [
    '<!doctype html><html lang="ko"><head><meta charset="utf-8"><title>' + e(subject) + '</title></head>',
    '<body style="font-family: sans-serif; line-height: 1.6">',
    '<p>안녕하세요.</p>',
    `<p>${e(mail.inviterEmail)} 님이 AI Utility Hub의 <strong>${e(mail.teamEmail)}</strong> 팀에 <strong>${e(role.ko)}</strong>(${e(role.en)}) 역할로 초대했습니다.</p>`,
    `<p>아래 링크를 열어 비밀번호를 정하면 팀에 들어갑니다:<br><a href="${e(mail.url)}">${e(mail.url)}</a></p>`,
    `<p>이 링크는 한 번만 쓸 수 있고 ${e(expires)}(한국 시간)까지 유효합니다.</p>`,
    '<p>초대받을 일이 없다면 이 메일을 무시하세요. 링크를 열지 않으면 아무 일도 일어나지 않습니다.</p>',
    '</body></html>',
  ].join('\n');
  return { subject, text: lines.join('\n'), html };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
