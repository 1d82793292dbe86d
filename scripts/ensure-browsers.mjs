// The browser tests need Debian's Chromium (playwright-core drives it), Firefox ESR (puppeteer-core drives it
// over WebDriver BiDi) and WebKitGTK (WebKitWebDriver and MiniBrowser, package webkit2gtk-driver, in an X server of
// its own: xvfb); none downloads a browser of its own. For each: use its environment variable, then Debian's
// binary; when neither is there, install Debian's package if we can (root with apt-get), else stop with a message
// saying how.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

const BROWSERS = [
  { name: 'Chromium', env: 'CHROME_PATH', binary: '/usr/bin/chromium', pkg: 'chromium' },
  { name: 'Firefox ESR', env: 'FIREFOX_PATH', binary: '/usr/bin/firefox-esr', pkg: 'firefox-esr' },
  // MiniBrowser comes with it (libwebkit2gtk-4.1-0; harness/browsers/webkit.ts finds it, or $MINIBROWSER_PATH).
  { name: 'WebKitGTK WebDriver', env: 'WEBKIT_DRIVER_PATH', binary: '/usr/bin/WebKitWebDriver', pkg: 'webkit2gtk-driver' },
  { name: 'Xvfb (the X server WebKitGTK runs in)', env: 'XVFB_PATH', binary: '/usr/bin/Xvfb', pkg: 'xvfb' },
  // Not a browser, but installed the same way: the Postgres backend's tests start a throwaway server (harness/postgres.ts).
  { name: "PostgreSQL 15's server", env: 'PG_BIN', binary: '/usr/lib/postgresql/15/bin/initdb', pkg: 'postgresql', inDir: 'initdb' },
];

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
let hasApt = false;
try {
  execSync('command -v apt-get', { stdio: 'ignore' });
  hasApt = true;
} catch {}

// PG_BIN names the directory of the server's programs; the others name the program itself.
const given = ({ env, inDir }) => (process.env[env] && inDir ? `${process.env[env]}/${inDir}` : process.env[env]);
const missing = BROWSERS.filter((b) => ![given(b), b.binary].some((p) => p && existsSync(p)));
if (missing.length > 0 && isRoot && hasApt) {
  const pkgs = missing.map((b) => b.pkg).join(' ');
  console.log(`browser tests: installing Debian ${pkgs} (apt-get install -y ${pkgs})…`);
  execSync(`apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${pkgs}`, { stdio: 'inherit' });
}
const still = missing.filter(({ binary }) => !existsSync(binary));
for (const { name, env, pkg } of still) {
  console.error(
    `browser tests need ${name} and none was found.\n` +
      `  Debian/Ubuntu: sudo apt-get update && sudo apt-get install -y ${pkg}\n` +
      `  or point ${env} at a ${name} binary: ${env}=/path/to/browser npm test`,
  );
}
process.exit(still.length > 0 ? 1 : 0);
