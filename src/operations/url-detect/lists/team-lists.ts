import type { HarmCategory } from '../list-index.js';

/**
 * Lists the team writes and ships with the build (a TypeScript module, so `dist/` has it):
 * well-known brands of each category, as domains (`example.com` covers its subdomains) or
 * URL prefixes. Downloaded feeds (`npm run lists:update`) add to these in the database.
 */
export const TEAM_LISTS: Record<HarmCategory, readonly string[]> = {
  gambling: [
    'bet365.com', '1xbet.com', '22bet.com', 'stake.com', 'pinnacle.com', 'williamhill.com', 'betway.com',
    '888casino.com', 'pokerstars.com', 'dafabet.com', 'bc.game', 'roobet.com', 'melbet.com', 'parimatch.com',
    'mostbet.com', 'betfair.com', 'unibet.com', 'bwin.com', 'sbobet.com', 'm88.com', 'w88.com', 'fun88.com',
    '188bet.com', 'vwin.com', 'ggpoker.com', 'bet9ja.com', 'betonline.ag', 'bovada.lv', 'casumo.com', 'leovegas.com',
    'mrgreen.com', 'rollbit.com', 'shuffle.com', 'duelbits.com', 'bitstarz.com', 'evolution.com', 'pragmaticplay.com',
  ],
  adult: [
    'pornhub.com', 'xvideos.com', 'xnxx.com', 'xhamster.com', 'redtube.com', 'youporn.com', 'onlyfans.com',
    'chaturbate.com', 'stripchat.com', 'bongacams.com', 'spankbang.com', 'eporner.com', 'missav.com', 'missav.ws',
    'jable.tv', 'javlibrary.com', 'tube8.com', 'tnaflix.com', 'livejasmin.com', 'cam4.com', 'myfreecams.com',
    'brazzers.com', 'hitomi.la', 'nhentai.net', 'e-hentai.org', 'rule34.xxx', 'fansly.com', 'manyvids.com',
  ],
  spam: [
    'adf.ly', 'linkvertise.com', 'shorte.st', 'ouo.io', 'exe.io', 'bc.vc', 'sh.st', 'adfoc.us', 'clk.sh', 'shrinkme.io',
    'testsafebrowsing.appspot.com/s/unwanted.html',
  ],
  phishing: [
    'testsafebrowsing.appspot.com/s/phishing.html',
    'www.amtso.org/check-desktop-phishing-page/',
  ],
  malware: [
    'testsafebrowsing.appspot.com/s/malware.html',
    'testsafebrowsing.appspot.com/s/malware_in_iframe.html',
    'wicar.org/test/',
    'secure.eicar.org/eicar.com',
    'secure.eicar.org/eicar.com.txt',
    'secure.eicar.org/eicar_com.zip',
  ],
};
