/** Where Tambari's users mostly are: offered first, so few people need to search. */
export const COMMON_TIME_ZONES = [
  'Africa/Lagos',
  'Africa/Accra',
  'Africa/Nairobi',
  'Africa/Johannesburg',
  'Africa/Cairo',
  'Africa/Casablanca',
  'Africa/Abidjan',
  'Africa/Kigali',
  'Africa/Dar_es_Salaam',
  'Africa/Addis_Ababa',
  'Europe/London',
  'UTC',
] as const;

export interface TimeZoneOption {
  value: string;
  label: string;
  group: string;
  keywords: string[];
}

/** The zones this browser knows; an engine without `supportedValuesOf` gets the common ones. */
function supportedTimeZones(): string[] {
  const intl = Intl as typeof Intl & { supportedValuesOf?: (key: 'timeZone') => string[] };
  return typeof intl.supportedValuesOf === 'function' ? intl.supportedValuesOf('timeZone') : [];
}

/** "Africa/Dar_es_Salaam" reads "Africa / Dar es Salaam"; the city alone is a keyword. */
function toOption(zone: string, group: string): TimeZoneOption {
  const parts = zone.split('/').map((part) => part.replaceAll('_', ' '));
  return { value: zone, label: parts.join(' / '), group, keywords: [parts.at(-1) ?? zone, zone] };
}

/**
 * Options for the time zone picker: the common zones first, then every other zone the browser knows.
 * `current` is always offered, even when this browser does not list it, so a saved value never vanishes.
 */
export function timeZoneOptions(
  current?: string,
  zones: readonly string[] = supportedTimeZones(),
): TimeZoneOption[] {
  const common = new Set<string>(COMMON_TIME_ZONES);
  const rest = new Set(zones.filter((zone) => !common.has(zone)));
  if (current && !common.has(current)) rest.add(current);
  return [
    ...COMMON_TIME_ZONES.map((zone) => toOption(zone, 'Common')),
    ...[...rest].sort().map((zone) => toOption(zone, 'All time zones')),
  ];
}
