/** The parts one after another in one new array; `length`, their total, when the caller has counted it already. */
export function joinBytes(parts: readonly Uint8Array[], length = parts.reduce((n, part) => n + part.length, 0)): Uint8Array {
  const joined = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return joined;
}
