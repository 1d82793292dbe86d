/** Offer bytes to the user as a downloaded file (the browser's own save, no server round trip). */
export function saveBytes(bytes: Uint8Array, filename: string, type: string): void {
  saveParts([bytes], filename, type);
}

/** The same for a file that arrived in parts (a streamed export): the parts are joined by the Blob, not copied here. */
export function saveParts(parts: readonly Uint8Array[], filename: string, type: string): void {
  const url = URL.createObjectURL(new Blob(parts as Uint8Array<ArrayBuffer>[], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  // The download has started by the time the click returns; free the blob a little later.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
