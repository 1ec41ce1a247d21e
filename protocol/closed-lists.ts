/**
 * Whether a value is a member of a closed (`as const`) list, narrowed to the list's members: the one
 * membership test of the kit's closed lists, so no caller widens a list to `readonly string[]` to ask.
 */
export function isOneOf<const T extends readonly unknown[]>(list: T, value: unknown): value is T[number] {
  return list.includes(value);
}
