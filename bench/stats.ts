/** Small statistics helpers for the benchmark (no dependencies). */

export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low] + (sorted[high] - sorted[low]) * (position - low);
}

export const median = (values: readonly number[]) => quantile(values, 0.5);

export const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

/** Fisher–Yates shuffle (in place), so interleaved runs have no fixed order. */
export function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

export const round = (value: number, digits = 2) => (Number.isFinite(value) ? Number(value.toFixed(digits)) : value);

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
