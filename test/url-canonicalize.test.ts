import { describe, expect, it } from 'vitest';
import { AppError } from '../src/errors.js';
import { canonicalizeUrl } from '../src/operations/url-detect/canonicalize.js';
import { entryExpression, lookupExpressions } from '../src/operations/url-detect/lists/expressions.js';

describe('canonicalizeUrl (Safe Browsing style)', () => {
  it.each([
    ['HTTP://WWW.Naver.COM:80/a/./b/../c//d?x=1#frag', 'http://www.naver.com/a/c/d?x=1'],
    ['https://example.com:443', 'https://example.com/'],
    ['http://3232235777/', 'http://192.168.1.1/'],
    ['http://0x7f.1/', 'http://127.0.0.1/'],
    ['http://example.com/%2541%2542', 'http://example.com/AB'],
    ['http://example.com/a b', 'http://example.com/a%20b'],
    ['http://www.example.com./', 'http://www.example.com/'],
    ['http://example.com:8080/x', 'http://example.com:8080/x'],
    ['  http://example.com/\tpath\n  ', 'http://example.com/path'],
    ['http://[::1]/', 'http://[::1]/'],
  ])('%s → %s', (raw, canonical) => {
    expect(canonicalizeUrl(raw).href).toBe(canonical);
  });

  it('keeps IDN as punycode and gives the Unicode form for the rules', () => {
    const url = canonicalizeUrl('https://토토사이트.com/먹튀');
    expect(url.host).toBe('xn--vf4b27jfqja61l.com');
    expect(url.hostUnicode).toBe('토토사이트.com');
    expect(url.decodedText).toBe('/먹튀');
    expect(url.path).toBe('/%EB%A8%B9%ED%8A%80');
  });

  it('splits the registrable domain with the public suffix list', () => {
    const url = canonicalizeUrl('https://a.b.naver.com.secure-login.top/x');
    expect([url.domain, url.domainLabel, url.publicSuffix, url.subdomain]).toEqual([
      'secure-login.top',
      'secure-login',
      'top',
      'a.b.naver.com',
    ]);
    expect(canonicalizeUrl('https://www.hometax.go.kr/').publicSuffix).toBe('go.kr');
  });

  it('notices credentials used to hide the host', () => {
    expect(canonicalizeUrl('https://user@kakao.com@evil.top/').hasUserinfo).toBe(true);
    expect(canonicalizeUrl('https://kakao.com/').hasUserinfo).toBe(false);
  });

  it.each([
    'ftp://example.com/',
    'javascript:alert(1)',
    'example.com',
    '//example.com/x',
    'http://',
    'https://exa mple.com/',
    'mailto:a@b.c',
  ])('refuses %s with a 400 naming url', (raw) => {
    const error = (() => {
      try {
        canonicalizeUrl(raw);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(400);
    expect((error as AppError).extra).toEqual({ field: 'url' });
  });
});

describe('lookup expressions', () => {
  it('are host suffixes times path prefixes (the page itself as a folder too), then the exact host', () => {
    const expressions = lookupExpressions(canonicalizeUrl('http://a.b.c/1/2.html?param=1'));
    expect(expressions).toEqual([
      'a.b.c/1/2.html?param=1',
      'a.b.c/',
      'a.b.c/1/',
      'a.b.c/1/2.html/',
      'b.c/1/2.html?param=1',
      'b.c/',
      'b.c/1/',
      'b.c/1/2.html/',
      '=a.b.c/',
    ]);
    expect(lookupExpressions(canonicalizeUrl('https://www.example.com/'))).toContain('=example.com/');
  });

  it('use at most five hosts and never the bare top-level label', () => {
    const hosts = new Set(
      lookupExpressions(canonicalizeUrl('http://a.b.c.d.e.f.g/'))
        .filter((e) => !e.startsWith('='))
        .map((e) => e.split('/')[0]),
    );
    expect([...hosts]).toEqual(['a.b.c.d.e.f.g', 'c.d.e.f.g', 'd.e.f.g', 'e.f.g', 'f.g']);
  });

  it('use only the exact host for IP addresses', () => {
    const hosts = new Set(
      lookupExpressions(canonicalizeUrl('http://1.2.3.4:8080/bins/x'))
        .filter((e) => !e.startsWith('='))
        .map((e) => e.split('/')[0]),
    );
    expect([...hosts]).toEqual(['1.2.3.4']);
  });

  it('turn list entries into expressions', () => {
    expect(entryExpression('Example.COM')).toBe('example.com/');
    expect(entryExpression('*.example.com')).toBe('example.com/');
    expect(entryExpression('http://1.2.3.4:8080/bins/Mozi.m')).toBe('1.2.3.4/bins/Mozi.m/');
    expect(entryExpression('example.com/ads/')).toBe('example.com/ads/');
    expect(entryExpression('example.com/ads')).toBe('example.com/ads/');
    expect(entryExpression('example.com/p?id=1')).toBe('example.com/p?id=1');
    expect(entryExpression('host.example', 'host')).toBe('=host.example/');
    expect(entryExpression('www.host.example', 'host')).toBe('=host.example/');
    expect(entryExpression('# comment')).toBeUndefined();
    expect(entryExpression('not a domain')).toBeUndefined();
    expect(entryExpression('localhost')).toBeUndefined();
  });
});
