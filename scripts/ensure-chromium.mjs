// Browser tests need Chromium. Use $CHROME_PATH, then Debian's /usr/bin/chromium; when neither is there,
// install Debian's package if we can (root with apt-get), else stop with a message saying how.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

const candidates = [process.env.CHROME_PATH, '/usr/bin/chromium'].filter(Boolean);
if (candidates.some((p) => existsSync(p))) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
let hasApt = false;
try {
  execSync('command -v apt-get', { stdio: 'ignore' });
  hasApt = true;
} catch {}

if (isRoot && hasApt) {
  console.log('browser tests: installing Debian chromium (apt-get install -y chromium)…');
  execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', { stdio: 'inherit' });
  if (existsSync('/usr/bin/chromium')) process.exit(0);
}
console.error(
  'browser tests need Chromium and none was found.\n' +
    '  Debian/Ubuntu: sudo apt-get update && sudo apt-get install -y chromium\n' +
    '  or point CHROME_PATH at a Chromium/Chrome binary: CHROME_PATH=/path/to/chrome npm test',
);
process.exit(1);
