/**
 * Opens a file published on the web as a byte stream for the import: the body is never held whole, the
 * import reads it as it arrives. Every failure is a sentence for the user that says nothing was changed.
 */

export class FetchSourceError extends Error {
  override readonly name = 'FetchSourceError';
}

export interface FetchedSource {
  body: ReadableStream<Uint8Array>;
  /** Content-Length when the server sent one (compressed transfers may not). */
  size: number | null;
  /** The file's name, from the URL's last path segment. */
  name: string;
}

const UNCHANGED = 'The previous dataset is still active; nothing was changed.';

export function fileNameOf(url: URL): string {
  const last = decodeURIComponent(url.pathname.split('/').filter(Boolean).at(-1) ?? '');
  return last || url.host;
}

/** Only http(s): a data:, blob: or file: URL is not "a file published on the web". */
export function parseSourceUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new FetchSourceError(`"${text}" is not a web address. ${UNCHANGED}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new FetchSourceError(`Only http and https addresses can be imported, not ${url.protocol}. ${UNCHANGED}`);
  }
  return url;
}

export async function fetchSource(text: string, signal: AbortSignal): Promise<FetchedSource> {
  const url = parseSourceUrl(text);
  let response: Response;
  try {
    // No credentials: a public file needs none, and a server need not allow them for CORS.
    response = await fetch(url, { signal, credentials: 'omit', cache: 'no-store' });
  } catch (error) {
    if (signal.aborted) throw error;
    // The browser hides why a cross-origin fetch failed: a server without CORS headers, an address this
    // app's policy does not allow and a network failure all surface as the same TypeError.
    const offline = (globalThis.navigator as Navigator | undefined)?.onLine === false;
    throw new FetchSourceError(
      offline
        ? `This device is offline, so ${url.host} cannot be reached. ${UNCHANGED}`
        : `The file at ${url.host} could not be read: the server does not allow this app to read the file (CORS), or it could not be reached. ` +
            `Download it and import the file instead. ${UNCHANGED}`,
      { cause: error },
    );
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel().catch(() => {});
    throw new FetchSourceError(
      `The server at ${url.host} answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''} instead of the file. ${UNCHANGED}`,
    );
  }
  const length = Number(response.headers.get('content-length'));
  // A compressed transfer's Content-Length counts compressed bytes, while the body yields them unpacked.
  const encoded = !!response.headers.get('content-encoding') && response.headers.get('content-encoding') !== 'identity';
  return { body: response.body, size: Number.isFinite(length) && length > 0 && !encoded ? length : null, name: fileNameOf(url) };
}
