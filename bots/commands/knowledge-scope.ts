import type { Invocation } from './types.js';

/**
 * Knowledge scopes of the bots (issue 39 item 4): a Slack channel is `slack:<channel id>`, a
 * Discord channel `discord:<channel id>` (a thread counts as its channel) and a Discord server
 * `discord-server:<guild id>`. A question asked in a channel searches that channel's scope, its
 * server's, and the account's common entries; a saved thread belongs to its channel's scope, so
 * a private channel's thread never answers anywhere else.
 */
export function channelScope(invocation: Invocation): string | undefined {
  const channel = invocation.threadParentId ?? invocation.channelId;
  return channel ? `${invocation.platform}:${channel}` : undefined;
}

export function askScopes(invocation: Invocation): string[] {
  const scopes: string[] = [];
  const channel = channelScope(invocation);
  if (channel) scopes.push(channel);
  if (invocation.platform === 'discord' && invocation.workspaceId) scopes.push(`discord-server:${invocation.workspaceId}`);
  return scopes;
}
