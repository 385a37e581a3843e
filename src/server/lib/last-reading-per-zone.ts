/**
 * Remembers the last reading per time zone. The dispatcher reads one instant (its batch's) once per
 * message, and Intl's formatToParts costs ~10 µs and a dozen objects: the same instant in the same zone
 * is read once. A reading is handed out again, so it must be immutable (frozen, or a string).
 */
export function lastReadingPerZone<T>(
  read: (instantMs: number, timeZone: string) => T,
): (instantMs: number, timeZone: string) => T {
  const lastReadings = new Map<string, { instantMs: number; value: T }>();
  return (instantMs, timeZone) => {
    const last = lastReadings.get(timeZone);
    if (last !== undefined && last.instantMs === instantMs) return last.value;
    const value = read(instantMs, timeZone);
    if (last !== undefined) {
      last.instantMs = instantMs;
      last.value = value;
    } else lastReadings.set(timeZone, { instantMs, value });
    return value;
  };
}
