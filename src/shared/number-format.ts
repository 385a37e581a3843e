/**
 * Intl.NumberFormat instances, made once per locale and options. Making one costs far more than using it
 * (the browser loads the locale's data each time); the pricing page formats dozens of limits and prices
 * as its plans render, which made that render a long task of the page's load.
 */
const formatters = new Map<string, Intl.NumberFormat>();

export function numberFormat(locale?: string, options?: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale ?? ''}|${options ? JSON.stringify(options) : ''}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale, options);
    formatters.set(key, formatter);
  }
  return formatter;
}
