import Bowser from 'bowser';

export interface AgentFamilies {
  /** desktop | mobile | tablet | tv | unknown */
  device: string;
  /** e.g. iOS, Android, Windows, macOS; `unknown` when the parser can't tell. */
  os: string;
  /** e.g. Chrome, Safari, Samsung Internet for Android; `unknown` when the parser can't tell. */
  browser: string;
}

const MAX_NAME = 40;

/** Device, OS and browser families of a User-Agent, read by bowser (a maintained parser). */
export function agentFamilies(userAgent: string | undefined): AgentFamilies {
  if (!userAgent) return { device: 'unknown', os: 'unknown', browser: 'unknown' };
  let parsed: Bowser.Parser.ParsedResult;
  try {
    parsed = Bowser.parse(userAgent);
  } catch {
    return { device: 'unknown', os: 'unknown', browser: 'unknown' };
  }
  return {
    device: clean(parsed.platform.type),
    os: clean(parsed.os.name),
    browser: clean(parsed.browser.name),
  };
}

/** Names come from the parser's tables; capped all the same, since a header is anyone's text. */
function clean(name: string | undefined): string {
  const trimmed = (name ?? '').trim().slice(0, MAX_NAME);
  return trimmed || 'unknown';
}
