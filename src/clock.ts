/**
 * "Now" for the whole service: the runtime builds one clock and hands it to every part that
 * reads the time (quota renewal, caches, watches, login tokens, the RateLimit headers), so a
 * test that fixes it sees one consistent instant everywhere.
 */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();
