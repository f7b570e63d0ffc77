import { flag } from './options.js';

/** What decides who sees a reply: a command's or message action's flags. */
export interface Visibility {
  /** ID documents, API keys: the caller alone sees the reply, whatever was asked. */
  sensitive?: boolean;
  /** The caller may ask for a reply in the channel (`public` / `공개`). */
  publicable?: boolean;
}

/**
 * The one rule for who sees a reply, used by the runner (the reply's `public`) and by the
 * Discord door (whether its deferred answer is ephemeral): posted to the channel only when
 * the command allows it, is not sensitive, and the caller asked for it.
 */
export function isPublicReply(def: Visibility, requested: unknown): boolean {
  return def.sensitive !== true && def.publicable === true && flag.safeParse(requested).data === true;
}
