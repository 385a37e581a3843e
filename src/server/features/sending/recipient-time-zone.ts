import { createRequire } from 'node:module';
import { now } from '@server/lib/clock';
import { offsetAt } from '@server/lib/local-time';
import { ZONE_LOCATIONS } from './zone-locations';

/*
 * Which time zone a recipient lives in, from the country and city on their contact row, so campaigns can
 * send inside the recipient's own working hours.
 */

interface ZonePoint {
  zone: string;
  /** The zone's principal city, normalized ("America/Los_Angeles" → "los angeles"). */
  city: string;
  x: number;
  y: number;
  z: number;
}

interface CountryZones {
  zones: ZonePoint[];
  /** Normalized city name → zone, built on first use of a multi-zone country. */
  cities: Map<string, string> | null;
  /** The zone most of the country's known cities are in: the guess when the city is unknown. */
  predominant: string | null;
}

let zonesByCountry: Map<string, CountryZones> | null = null;

function toPoint(latitude: number, longitude: number): { x: number; y: number; z: number } {
  const lat = (latitude * Math.PI) / 180;
  const lon = (longitude * Math.PI) / 180;
  return { x: Math.cos(lat) * Math.cos(lon), y: Math.cos(lat) * Math.sin(lon), z: Math.sin(lat) };
}

function countryZones(countryCode: string): CountryZones | undefined {
  if (!zonesByCountry) {
    zonesByCountry = new Map();
    for (const [country, zone, latitude, longitude] of ZONE_LOCATIONS) {
      let entry = zonesByCountry.get(country);
      if (!entry) {
        entry = { zones: [], cities: null, predominant: null };
        zonesByCountry.set(country, entry);
      }
      const city = normalizeCityName(zone.slice(zone.lastIndexOf('/') + 1).replaceAll('_', ' '));
      entry.zones.push({ zone, city, ...toPoint(latitude, longitude) });
    }
  }
  return zonesByCountry.get(countryCode);
}

/** Squared chord between two points on the unit sphere: orders the same as the great-circle distance. */
function chord(a: { x: number; y: number; z: number }, b: { x: number; y: number; z: number }): number {
  return (a.x - b.x) ** 2 + (a.y - b.y) ** 2 + (a.z - b.z) ** 2;
}

function nearest(zones: readonly ZonePoint[], point: { x: number; y: number; z: number }): ZonePoint {
  let best = zones[0]!;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of zones) {
    const distance = chord(candidate, point);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/*
 * Coordinates → zone. The precise way is a boundary lookup: @photostructure/tz-lookup (73 KB, CC0, no
 * dependencies) answers from the real zone borders. Until it is in package.json, and for the border cases
 * where it answers a neighbouring country's zone, the fallback is the country's zone whose tz database
 * principal location is nearest — right for most countries (Congo, Spain, Mexico, Australia) but wrong
 * for about a quarter of US, Canadian and Russian cities, whose big zones have their principal city at
 * one edge (Houston is nearer Denver than Chicago).
 */
type CoordinateLookup = (latitude: number, longitude: number) => string;
let boundaryLookup: CoordinateLookup | null | undefined;

function loadBoundaryLookup(): CoordinateLookup | null {
  if (boundaryLookup === undefined) {
    try {
      boundaryLookup = createRequire(import.meta.url)('@photostructure/tz-lookup') as CoordinateLookup;
    } catch {
      boundaryLookup = null;
    }
  }
  return boundaryLookup;
}

/** Whether recipient zones come from real zone borders (true) or the nearest principal location. */
export function hasBoundaryTimeZoneLookup(): boolean {
  return loadBoundaryLookup() !== null;
}

const clockSignatures = new Map<string, string>();

/** Two zones keep the same clock when their offsets agree in January and July of this year. */
function clockSignature(timeZone: string): string {
  let signature = clockSignatures.get(timeZone);
  if (signature === undefined) {
    const year = now().getUTCFullYear();
    signature = `${offsetAt(Date.UTC(year, 0, 15), timeZone)},${offsetAt(Date.UTC(year, 6, 15), timeZone)}`;
    clockSignatures.set(timeZone, signature);
  }
  return signature;
}

function zoneAtPoint(
  entry: CountryZones,
  point: { x: number; y: number; z: number },
  latitude: number,
  longitude: number,
): ZonePoint {
  const lookup = loadBoundaryLookup();
  if (lookup) {
    let found: string | null = null;
    try {
      found = lookup(latitude, longitude);
    } catch {
      // Out-of-range coordinates in the city data: use the nearest principal location.
    }
    if (found) {
      const exact = entry.zones.find((candidate) => candidate.zone === found);
      if (exact) return exact;
      // A neighbour's zone near a border (a German town answered as Europe/Zurich): the nearest of the
      // country's zones that keeps the same clock, else the nearest of all.
      const signature = clockSignature(found);
      const sameClock = entry.zones.filter((candidate) => clockSignature(candidate.zone) === signature);
      if (sameClock.length > 0) return nearest(sameClock, point);
    }
  }
  return nearest(entry.zones, point);
}

export function normalizeCityName(city: string): string {
  return city
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

// country-state-city holds every city on earth (~70 MB in memory): load it only when a recipient is in a
// country with several zones, so processes that never need it do not carry it.
type CountryStateCity = typeof import('country-state-city');
let countryStateCity: CountryStateCity | null = null;
function csc(): CountryStateCity {
  countryStateCity ??= createRequire(import.meta.url)('country-state-city') as CountryStateCity;
  return countryStateCity;
}

/** A place of the same name this close to a zone's principal location is that city (~50 km as a chord). */
const PRINCIPAL_CITY_CHORD = (50 / 6371) ** 2;

/**
 * Places each of the country's known cities in a zone, once per country. Cities that share a name but not a
 * zone need a rule, as the city data has no population or region to tell them apart: the one that is a
 * zone's principal city wins (Denver, Colorado over Denver, Pennsylvania; Perth, Western Australia over
 * Perth, Tasmania), else the zone most namesakes are in. That last rule is a guess: Dallas goes with its
 * Eastern namesakes (Georgia, Pennsylvania, North Carolina), not Texas. A region on the contact would
 * settle it.
 */
function indexCities(entry: CountryZones, countryCode: string): Map<string, string> {
  const candidatesByName = new Map<string, Map<string, { count: number; principal: boolean }>>();
  const citiesPerZone = new Map<string, number>();
  for (const city of csc().City.getCitiesOfCountry(countryCode) ?? []) {
    const latitude = Number(city.latitude);
    const longitude = Number(city.longitude);
    if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) continue;
    const point = toPoint(latitude, longitude);
    const zone = zoneAtPoint(entry, point, latitude, longitude);
    citiesPerZone.set(zone.zone, (citiesPerZone.get(zone.zone) ?? 0) + 1);
    const name = normalizeCityName(city.name);
    let candidates = candidatesByName.get(name);
    if (!candidates) {
      candidates = new Map();
      candidatesByName.set(name, candidates);
    }
    const principal = name === zone.city && chord(zone, point) <= PRINCIPAL_CITY_CHORD;
    const candidate = candidates.get(zone.zone);
    if (candidate) {
      candidate.count++;
      candidate.principal ||= principal;
    } else candidates.set(zone.zone, { count: 1, principal });
  }
  const cities = new Map<string, string>();
  for (const [name, candidates] of candidatesByName) {
    let best: { zone: string; count: number; principal: boolean } | null = null;
    for (const [zone, candidate] of candidates) {
      if (
        !best ||
        (candidate.principal && !best.principal) ||
        (candidate.principal === best.principal && candidate.count > best.count)
      ) {
        best = { zone, ...candidate };
      }
    }
    cities.set(name, best!.zone);
  }
  // Zones that keep the same clock count as one (Sydney, Melbourne and Hobart), named by its biggest.
  const citiesPerClock = new Map<string, { zone: string; zoneCount: number; count: number }>();
  for (const { zone } of entry.zones) {
    const count = citiesPerZone.get(zone) ?? 0;
    const signature = clockSignature(zone);
    const group = citiesPerClock.get(signature);
    if (!group) citiesPerClock.set(signature, { zone, zoneCount: count, count });
    else {
      group.count += count;
      if (count > group.zoneCount) Object.assign(group, { zone, zoneCount: count });
    }
  }
  let predominant: { zone: string; count: number } | null = null;
  for (const group of citiesPerClock.values()) {
    if (!predominant || group.count > predominant.count) predominant = group;
  }
  entry.predominant = predominant?.zone ?? null;
  return cities;
}

/**
 * The IANA zone a recipient most likely lives in, from their country and city. A country's zones come from
 * the tz database's zone.tab (zone-locations.ts): one zone → it; several → the zone of the named city
 * (see zoneAtPoint), and for a city we do not know, the zone most of the country's cities are in (New York
 * for the US, Moscow for Russia). Unknown country → null: the caller uses the campaign's zone.
 * The first call for a multi-zone country indexes its cities (a few hundred ms for the US, once per
 * process, plus loading the city data the first time); later calls are a map lookup.
 */
export function resolveRecipientTimeZone(input: {
  countryCode: string | null | undefined;
  city?: string | null;
}): string | null {
  const countryCode = (input.countryCode ?? '').trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(countryCode)) return null;
  const entry = countryZones(countryCode);
  if (!entry) return null;
  if (entry.zones.length === 1) return entry.zones[0]!.zone;
  entry.cities ??= indexCities(entry, countryCode);
  const city = input.city ? normalizeCityName(input.city) : '';
  return (city && entry.cities.get(city)) || entry.predominant || entry.zones[0]!.zone;
}
