import { describe, expect, it } from 'vitest';
import { inviteMessage } from '../src/providers/mail.js';

describe('the invitation mail', () => {
  const mail = {
    to: 'min@example.com',
    teamEmail: 'boss@example.kr',
    inviterEmail: 'admin@example.kr',
    roleLabel: { ko: '관리자', en: 'admin' },
    url: 'https://hub.example.kr/#join=q0GtokenTOKEN_-',
    expiresAt: new Date('2026-12-05T06:00:00Z'),
  };

  it('says in Korean who invited whom to which team, with which role, the link and its expiry in Korea time', () => {
    const { subject, text, html } = inviteMessage(mail);
    expect(subject).toBe('[AI Utility Hub] boss@example.kr 팀에 초대되었습니다');
    expect(text).toContain('admin@example.kr 님이 AI Utility Hub의 boss@example.kr 팀에 관리자(admin) 역할로 초대했습니다.');
    expect(text).toContain('\nhttps://hub.example.kr/#join=q0GtokenTOKEN_-\n');
    expect(text).toContain('2026년 12월 5일(토) 15:00(한국 시간)까지 유효합니다');
    expect(html).toContain('<a href="https://hub.example.kr/#join=q0GtokenTOKEN_-">');
    expect(html).toContain('2026년 12월 5일(토) 15:00(한국 시간)');
  });

  it('escapes what it writes into the HTML, and carries no image, script or other link', () => {
    const { html } = inviteMessage({ ...mail, inviterEmail: '"><img src=x>@example.kr', url: 'https://hub.example.kr/#join=a&b' });
    expect(html).not.toContain('<img');
    expect(html).toContain('&#34;&#62;&#60;img src=x&#62;@example.kr');
    expect(html).toContain('href="https://hub.example.kr/#join=a&#38;b"');
    expect(html).not.toMatch(/<script|src=["h]/i);
    expect(html.match(/href=/g)).toHaveLength(1);
  });
});
