/**
 * What the watch poller needs from the chat platforms (channel watches). The bots door implements it
 * (`bots/notifier.ts`); the composition passes it in, so `src/` never imports `bots/`.
 */

export type ChannelPlatform = 'slack' | 'discord';

export interface ChannelTarget {
  platform: ChannelPlatform;
  channelId: string;
  /** Slack team id or Discord guild id, when known. */
  workspaceId?: string;
}

/** A channel message: plain Korean text (no platform markup), first line a title. */
export interface ChannelMessage {
  text: string;
}

/**
 * Posted; or the channel is gone / the bot lost access (`gone`: the watch is disabled);
 * or a passing failure (`gone: false`: retried with backoff).
 */
export type PostOutcome = { ok: true } | { ok: false; gone: boolean; reason: string };

/** A person on a chat platform (who asked for a watch). */
export interface UserTarget {
  platform: ChannelPlatform;
  userId: string;
  workspaceId?: string;
}

export interface ChannelNotifier {
  /** Platforms this notifier can post to (configured bot tokens). */
  platforms: readonly ChannelPlatform[];
  post(target: ChannelTarget, message: ChannelMessage): Promise<PostOutcome>;
  /** A direct message to one person (Slack: the app's DM; Discord: a DM channel). */
  postToUser(target: UserTarget, message: ChannelMessage): Promise<PostOutcome>;
}
