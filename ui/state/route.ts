import type { ReactiveController, ReactiveControllerHost } from 'lit';

/**
 * The app's views live in the URL hash (`#/rates?…`, `#/websites?…`, `#/websites/<url>`, `#/weeks?…`, `#/datasets`,
 * `#/console`), so a view can be bookmarked and shared, and the hash never reaches a server or
 * collides with an API path. The query part of the rates and websites routes is the API's own query.
 */
export type Route =
  | { view: 'rates'; query: URLSearchParams }
  | { view: 'websites'; query: URLSearchParams }
  | { view: 'website'; url: string }
  | { view: 'weeks'; query: URLSearchParams }
  | { view: 'datasets'; query: URLSearchParams }
  | { view: 'console'; query: URLSearchParams }
  | { view: 'not-found'; hash: string };

export type ViewName = Route['view'];

export function parseHash(hash: string): Route {
  const raw = hash.replace(/^#/, '');
  if (raw === '' || raw === '/') return { view: 'rates', query: new URLSearchParams() };
  const q = raw.indexOf('?');
  const path = q === -1 ? raw : raw.slice(0, q);
  const query = new URLSearchParams(q === -1 ? '' : raw.slice(q + 1));
  if (path === '/rates') return { view: 'rates', query };
  if (path === '/websites') return { view: 'websites', query };
  if (path.startsWith('/websites/') && path.length > '/websites/'.length) {
    return { view: 'website', url: safeDecode(path.slice('/websites/'.length)) };
  }
  if (path === '/weeks') return { view: 'weeks', query };
  if (path === '/datasets') return { view: 'datasets', query };
  if (path === '/console') return { view: 'console', query };
  return { view: 'not-found', hash: raw };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export function formatRoute(route: Route): string {
  switch (route.view) {
    case 'rates':
    case 'websites':
    case 'weeks':
    case 'datasets':
    case 'console': {
      const qs = formatQuery(route.query);
      return `#/${route.view}${qs ? '?' + qs : ''}`;
    }
    case 'website':
      return `#/websites/${encodeURIComponent(route.url)}`;
    case 'not-found':
      return `#${route.hash}`;
  }
}

/**
 * A query string as the APIs document it: `filter=price_range:15,500`, `exclude=1%7C2`. Only what must
 * be escaped is (`:` and `,` stay readable; `|` is written %7C as the ceiling-rates examples do).
 */
export function formatQuery(params: URLSearchParams): string {
  const parts: string[] = [];
  for (const [key, value] of params) {
    parts.push(`${encode(key)}=${encode(value)}`);
  }
  return parts.join('&');
}

function encode(text: string): string {
  return encodeURIComponent(text).replaceAll('%3A', ':').replaceAll('%2C', ',');
}

/** Fired (synchronously) when the app itself changes the route. */
const ROUTE_EVENT = 'app-route';

/**
 * Go to a route: a new history entry (so Back returns here), or a replacement of the current one. The
 * views hear of it at once, not a task later as with `hashchange`, which a filter change would wait for.
 */
export function navigate(route: Route | string, options: { replace?: boolean } = {}): void {
  const hash = typeof route === 'string' ? route : formatRoute(route);
  if (hash === location.hash) return;
  if (options.replace) history.replaceState(history.state, '', hash);
  else history.pushState(null, '', hash);
  window.dispatchEvent(new Event(ROUTE_EVENT));
}

/** Keeps a component's `route` in step with the address bar (links, Back, Forward, a pasted deep link). */
export class RouteController implements ReactiveController {
  route: Route = parseHash(location.hash);

  constructor(private readonly host: ReactiveControllerHost) {
    host.addController(this);
  }

  private current = '';

  private readonly onChange = () => {
    // Back/Forward over app entries fire both popstate and hashchange: update once.
    if (location.hash === this.current) return;
    this.current = location.hash;
    this.route = parseHash(location.hash);
    this.host.requestUpdate();
  };

  hostConnected(): void {
    // hashchange: links, Back/Forward, an edited address; popstate: Back/Forward between same-hash entries.
    for (const type of ['hashchange', 'popstate', ROUTE_EVENT]) window.addEventListener(type, this.onChange);
    this.current = '';
    this.onChange();
  }

  hostDisconnected(): void {
    for (const type of ['hashchange', 'popstate', ROUTE_EVENT]) window.removeEventListener(type, this.onChange);
  }
}
