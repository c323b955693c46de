/**
 * The byte bound of a page (docs/ARCHITECTURE.md, "Answers under 6 MB"). Lambda refuses
 * a function's answer over 6 MB, counted as the function returns it: the proxy result,
 * whose body is the JSON envelope written once more as a JSON string (every `"` and `\`
 * doubles again). A page whose items can outgrow that (contacts/list: a contact may hold
 * 50 custom fields of 1,000 characters) takes items while they stay within
 * {@link PAGE_BYTES} and ends early otherwise, handing back a cursor to the first item
 * left out; the bound leaves room for the envelope, the headers and the proxy fields.
 */

export const PAGE_BYTES = 5 * 1024 * 1024;

/** Bytes an item adds to the answer: its JSON as a JSON string (without the quotes), and a comma. */
const answerBytes = (item: unknown) => Buffer.byteLength(JSON.stringify(JSON.stringify(item))) - 1;

/**
 * The leading items of `slots` that fit within {@link PAGE_BYTES} (always at least one),
 * and how many slots they used. An empty slot (a place of the listing without an item to
 * show) takes no bytes.
 */
export function fitPage<T>(slots: readonly (T | undefined)[]): { items: T[]; used: number } {
  const items: T[] = [];
  let bytes = 0;
  for (const [index, item] of slots.entries()) {
    if (item === undefined) continue;
    bytes += answerBytes(item);
    if (bytes > PAGE_BYTES && items.length) return { items, used: index };
    items.push(item);
  }
  return { items, used: slots.length };
}
