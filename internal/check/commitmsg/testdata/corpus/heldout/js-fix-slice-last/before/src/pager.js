export function firstN(items, n) {
  return items.slice(0, n - 1);
}
