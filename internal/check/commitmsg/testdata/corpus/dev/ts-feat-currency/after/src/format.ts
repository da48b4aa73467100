export function formatDate(d: Date, locale = "en-US"): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: "medium" }).format(d);
}

export function formatPercent(x: number, locale = "en-US"): string {
  return new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1 }).format(x);
}

export interface CurrencyOptions {
  currency: string;
  locale?: string;
  compact?: boolean;
}

export function formatCurrency(amount: number, opts: CurrencyOptions): string {
  return new Intl.NumberFormat(opts.locale ?? "en-US", {
    style: "currency",
    currency: opts.currency,
    notation: opts.compact ? "compact" : "standard",
  }).format(amount);
}
