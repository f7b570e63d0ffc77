import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openGeoIp } from '../src/providers/geoip.js';

/** A country database as operators get them (CC0 ip-location-db, MaxMind format), from its npm package. */
const DATABASE = fileURLToPath(
  new URL('../node_modules/@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb', import.meta.url),
);

describe('GEOIP_DB, the country of a click', () => {
  it('names the country of IPv4 and IPv6 addresses, and nothing for what is not an address', async () => {
    const geo = await openGeoIp(DATABASE);
    expect(geo.databaseType).toBeTruthy();
    expect(geo.country('211.234.10.1')).toBe('KR'); // a Korean carrier's
    expect(geo.country('8.8.8.8')).toBe('US');
    expect(geo.country('2001:4860:4860::8888')).toBe('US');
    expect(geo.country('not an address')).toBeUndefined();
    expect(geo.country('10.0.0.1')).toBeUndefined(); // private: no country
  });

  it('refuses a missing file or one that is not a MaxMind database, naming the variable', async () => {
    await expect(openGeoIp(join(tmpdir(), 'no-such-geoip.mmdb'))).rejects.toThrow(/^GEOIP_DB: cannot read/);
    const text = join(tmpdir(), `not-geoip-${process.pid}.mmdb`);
    writeFileSync(text, 'country,code\nKR,410\n');
    try {
      await expect(openGeoIp(text)).rejects.toThrow(/^GEOIP_DB: cannot read a MaxMind-format database/);
    } finally {
      rmSync(text, { force: true });
    }
  });
});
