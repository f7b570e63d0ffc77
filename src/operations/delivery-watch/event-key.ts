import type { Progress } from '../delivery/tracking-result.js';

/** What identifies a tracking event: a watch remembers the newest one it has seen. */
export function eventKey(progress: Progress): string {
  // A missing time keys as '' (what watches stored before times could be null).
  return `${progress.time ?? ''}|${progress.status.id}|${progress.location.name}|${progress.description}`;
}
