// A worked example of a prototype using the API: the same code works against production by changing the
// origin (https://api.gsa.gov/technology/site-scanning/v1/websites?limit=3&api_key=...). The URL is relative to
// this page, so it reaches the APIs wherever the app is served: /websites at an origin's root, /apps/gov/websites
// under a sub-path (docs/deploy.md).
const status = document.getElementById('status');
const result = document.getElementById('result');

async function main() {
  const controlled = Boolean(navigator.serviceWorker && navigator.serviceWorker.controller);
  const started = performance.now();
  const response = await fetch('websites?limit=3');
  const text = await response.text();
  const ms = Math.round(performance.now() - started);
  if (!controlled) {
    // No service worker on this origin yet: the request went to the web server, which does not run the API.
    status.textContent = `${response.status}: no service worker answers here yet. Open the app once, then reload this page.`;
    document.body.dataset.done = 'no-service-worker';
    return;
  }
  status.textContent = `${response.status} ${response.statusText || ''} from the service worker in ${ms} ms`;
  result.textContent = JSON.stringify(JSON.parse(text), null, 2);
  document.body.dataset.done = 'true';
}

main().catch((error) => {
  status.textContent = `Failed: ${error}`;
  document.body.dataset.done = 'error';
});
