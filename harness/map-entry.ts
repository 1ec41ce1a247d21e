/**
 * The value a map holds for `key`, made by `make` and kept the first time it is asked for: a
 * get-or-insert whose answer is typed as present. For maps whose values are never undefined.
 */
export function getOrInsert<K, V extends {} | null>(map: Map<K, V>, key: K, make: () => V): V {
  const held = map.get(key);
  if (held !== undefined) return held;
  const made = make();
  map.set(key, made);
  return made;
}
