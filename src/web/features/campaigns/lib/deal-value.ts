/** The deal value as typed ("250,000", "₦1 200.50"): a number ≥ 0 with at most 2 decimals, or why not. */
export function parseDealValue(input: string): { ok: true; value: number } | { ok: false; message: string } {
  const cleaned = input.replace(/[\s,₦$R]|KSh|GH₵|₵/g, '').trim();
  if (!cleaned) return { ok: false, message: 'Enter the deal value' };
  if (!/^\d+(\.\d{1,2})?$/.test(cleaned)) {
    return { ok: false, message: 'Enter an amount like 250000 or 1200.50' };
  }
  const value = Number(cleaned);
  if (!Number.isFinite(value) || value > 1_000_000_000_000) {
    return { ok: false, message: 'That amount is too large' };
  }
  return { ok: true, value };
}

/** "₦250,000", "$1,200.50". */
export function formatMoney(value: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en', {
      style: 'currency',
      currency,
      maximumFractionDigits: currency === 'USD' || currency === 'ZAR' ? 2 : 0,
    }).format(value);
  } catch {
    return `${currency} ${value}`;
  }
}
