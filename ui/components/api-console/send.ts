/** What the console shows of one answer. */
export interface ConsoleResponse {
  status: number;
  statusText: string;
  headers: [string, string][];
  /** Pretty-printed when the answer is JSON, else the text as received. */
  body: string;
  /** From just before fetch() to the last byte of the body. */
  ms: number;
  /** A service worker controls the page, so it answered (API paths never reach the network then). */
  fromServiceWorker: boolean;
  error?: string;
}

/** The API path below the deployment's base path: `/apps/gov/websites` for a build made with `BASE=/apps/gov/`. */
export function underBase(path: string): string {
  return `${import.meta.env.BASE_URL}${path.replace(/^\//, '')}`;
}

/** Send the request the way a prototype would: a plain fetch() on this origin, under the app's base path. */
export async function sendRequest(path: string, method: string): Promise<ConsoleResponse> {
  const started = performance.now();
  const fromServiceWorker = !!navigator.serviceWorker?.controller;
  try {
    const response = await fetch(underBase(path), { method, cache: 'no-store' });
    const text = await response.text();
    const ms = performance.now() - started;
    return {
      status: response.status,
      statusText: response.statusText,
      headers: [...response.headers.entries()],
      body: pretty(text, response.headers.get('content-type')),
      ms,
      fromServiceWorker,
    };
  } catch (error) {
    return {
      status: 0,
      statusText: '',
      headers: [],
      body: '',
      ms: performance.now() - started,
      fromServiceWorker,
      error: error instanceof Error ? error.message : String(error),
    };
  }
}

function pretty(text: string, contentType: string | null): string {
  if (!text || !contentType?.includes('json')) return text;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
