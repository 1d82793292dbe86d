// Both APIs mocked in a page of your own with MSW's setupWorker, answered by the engine in this page.
// Setup (once, in your project):
//   npm i -D offline-gov-api msw
//   npx msw init public                              # MSW's service worker, served at /mockServiceWorker.js
//   npx offline-gov-api copy-assets public/offline-gov-api
import { setupWorker } from 'msw/browser';
import { openBrowserEngine } from 'offline-gov-api/browser';
import { createHandlers } from 'offline-gov-api/msw';

const status = document.querySelector('#status');
const engine = await openBrowserEngine({
  assets: '/offline-gov-api/',
  onProgress: (message) => (status.textContent = message),
});
// Relative URLs on this origin and production's absolute URLs both reach the engine.
await setupWorker(...createHandlers(engine)).start({ onUnhandledRequest: 'bypass', quiet: true });
status.textContent = 'ready';

// From here on, the page's code calls the APIs as it would call production.
const sites = await (await fetch('/websites?target_url_agency_owner=General%20Services%20Administration&limit=3')).json();
const rates = await (await fetch('https://api.gsa.gov/acquisition/calc/v3/api/ceilingrates/?keyword=analyst&page_size=1')).json();
document.querySelector('#sites').textContent = JSON.stringify(sites.meta);
document.querySelector('#rates').textContent = JSON.stringify(rates.hits.total);
