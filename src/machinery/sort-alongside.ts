// Levels of an object have few keys, often already in order: an insertion sort of the keys
// with their values moved alongside beats building pairs for Array.prototype.sort.

/** Sorts `items` by `rankOf` (stable), moving `values[i]` with `items[i]`. */
export function sortAlongside<T>(items: T[], values: unknown[], rankOf: (item: T) => number): void {
  for (let i = 1; i < items.length; i++) {
    const item = items[i];
    const value = values[i];
    const rank = rankOf(item);
    let j = i - 1;
    while (j >= 0 && rankOf(items[j]) > rank) {
      items[j + 1] = items[j];
      values[j + 1] = values[j];
      j--;
    }
    items[j + 1] = item;
    values[j + 1] = value;
  }
}
