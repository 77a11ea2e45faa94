/**
 * Appends to a list made on its first item. An array literal of one holds one place, where the
 * first push onto `[]` grows it to 16: for the few-item lists made on every answer (a header's
 * items, its windows), most of what they allocated.
 */
export function append<T>(list: T[] | null, item: T): T[] {
  if (list === null) return [item];
  list.push(item);
  return list;
}
