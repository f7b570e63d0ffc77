import type { Attribution } from '../../src/platform/audit-log.js';
import type { BotPlatform } from '../../src/platform/workspace-links.js';

/** The chat user behind a command, as the audit log names them: the platform and its user id (never a display name, which anyone can change). */
export function chatUser(invocation: { platform: BotPlatform; userId: string }): Attribution {
  return { actor: { kind: invocation.platform, id: invocation.userId, label: `${invocation.platform} ${invocation.userId}` } };
}
