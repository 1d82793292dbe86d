// The Firefox browser tests (tests/e2e/firefox-*.test.ts) need Firefox ESR. Use $FIREFOX_PATH, then Debian's
// /usr/bin/firefox-esr; when neither is there, install Debian's package if we can (root with apt-get), else stop
// with a message saying how. puppeteer-core drives it and downloads no browser of its own.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

const candidates = [process.env.FIREFOX_PATH, '/usr/bin/firefox-esr'].filter(Boolean);
if (candidates.some((p) => existsSync(p))) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
let hasApt = false;
try {
  execSync('command -v apt-get', { stdio: 'ignore' });
  hasApt = true;
} catch {}

if (isRoot && hasApt) {
  console.log('browser tests: installing Debian firefox-esr (apt-get install -y firefox-esr)…');
  execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq firefox-esr', { stdio: 'inherit' });
  if (existsSync('/usr/bin/firefox-esr')) process.exit(0);
}
console.error(
  'the Firefox browser tests need Firefox ESR and none was found.\n' +
    '  Debian/Ubuntu: sudo apt-get update && sudo apt-get install -y firefox-esr\n' +
    '  or point FIREFOX_PATH at a Firefox binary: FIREFOX_PATH=/path/to/firefox npm test',
);
process.exit(1);
