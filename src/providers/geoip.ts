import maxmind, { type Reader, type Response } from 'maxmind';

/** A country for an address, from the operator's GeoIP database (`GEOIP_DB`). */
export interface GeoLookup {
  /** ISO 3166-1 alpha-2 code (`KR`), or undefined when the database has no answer. */
  country(ip: string): string | undefined;
}

type CountryRecord = {
  country?: { iso_code?: string };
  registered_country?: { iso_code?: string };
  /** ip-location-db's country databases. */
  country_code?: string;
};

/**
 * Opens a MaxMind-format database (GeoLite2/GeoIP2 Country or City, DB-IP lite, or the
 * ip-location-db country files) with the `maxmind` reader. A file that is missing or not a
 * MaxMind database fails here, naming the variable, so the start stops with a clear message.
 */
export async function openGeoIp(path: string): Promise<GeoLookup & { databaseType: string }> {
  let reader: Reader<Response>;
  try {
    reader = await maxmind.open(path, { watchForUpdates: false, cache: { max: 10_000 } });
  } catch (error) {
    throw new Error(`GEOIP_DB: cannot read a MaxMind-format database at ${path}: ${(error as Error).message}`);
  }
  return {
    databaseType: reader.metadata.databaseType,
    country(ip) {
      if (!maxmind.validate(ip)) return undefined;
      try {
        const record = reader.get(ip) as CountryRecord | null;
        const code = record?.country?.iso_code ?? record?.registered_country?.iso_code ?? record?.country_code;
        return code && /^[A-Z]{2}$/i.test(code) ? code.toUpperCase() : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
