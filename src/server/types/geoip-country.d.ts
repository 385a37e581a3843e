// geoip-country ships no types; this is the part of its API we use.
declare module 'geoip-country' {
  export interface GeoipCountry {
    /** ISO 3166-1 alpha-2 */
    country: string;
    name?: string;
    continent?: string;
    currency?: string[];
  }
  export function lookup(ip: string | number): GeoipCountry | null;
  const geoip: { lookup: typeof lookup };
  export default geoip;
}
