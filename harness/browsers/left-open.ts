/**
 * The browsers of every engine a test file has launched and not yet closed. The browser suite's setup file closes
 * what a file left open (a setup that failed before the file's own afterAll could close it), so that no page,
 * profile or browser process outlives its file into the next.
 */
export const leftOpen = new Set<{ close(): Promise<void> }>();

/** Closes every browser this file launched and did not close; answers how many there were. */
export async function closeLeftOpen(): Promise<number> {
  const left = [...leftOpen];
  await Promise.all(left.map((browser) => browser.close()));
  return left.length;
}
