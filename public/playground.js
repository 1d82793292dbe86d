// A worked example of a prototype using the API: the same code works against production by changing the
// origin (https://api.gsa.gov/technology/site-scanning/v1/websites?limit=3&api_key=...).
const status = document.getElementById('status');
const result = document.getElementById('result');

async function main() {
  const started = performance.now();
  const response = await fetch('/websites?limit=3');
  const body = await response.json();
  const ms = Math.round(performance.now() - started);
  const via = navigator.serviceWorker?.controller ? 'the service worker' : 'the network (no service worker yet: open the app once)';
  status.textContent = `${response.status} ${response.statusText || ''} from ${via} in ${ms} ms`;
  result.textContent = JSON.stringify(body, null, 2);
  document.body.dataset.done = 'true';
}

main().catch((error) => {
  status.textContent = `Failed: ${error}`;
  document.body.dataset.done = 'error';
});
