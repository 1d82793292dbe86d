/**
 * Read a response body chunk by chunk into one buffer, reporting bytes as they arrive. `expected` sizes
 * the buffer up front (the manifest knows it) so a large download is not copied on every chunk.
 */
export async function readBody(response: Response, expected: number, onBytes: (received: number) => void): Promise<Uint8Array> {
  if (!response.body) {
    const all = new Uint8Array(await response.arrayBuffer());
    onBytes(all.length);
    return all;
  }
  let buffer = new Uint8Array(Math.max(expected, 1));
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.length > buffer.length) {
      const grown = new Uint8Array(Math.max(buffer.length * 2, size + value.length));
      grown.set(buffer.subarray(0, size));
      buffer = grown;
    }
    buffer.set(value, size);
    size += value.length;
    onBytes(size);
  }
  return size === buffer.length ? buffer : buffer.slice(0, size);
}
