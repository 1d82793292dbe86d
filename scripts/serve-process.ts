/**
 * The built `serve` command as a child process, for the load scripts (scripts/load.ts, scripts/bench-server.ts):
 * started on a free port, its URL read from its start line, and its resident memory read from /proc.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..');

/** `serve --no-app --port 0` with the given further options; resolves once it says where it listens. */
export function startServeProcess(options: readonly string[] = []): Promise<{ child: ChildProcess; url: string }> {
  const args = [resolve(ROOT, 'adapters/node/dist/bin.js'), 'serve', '--no-app', '--port', '0', ...options];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  return new Promise((done, fail) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const listening = /listening on (http:\/\/\S+)/.exec(stderr);
      if (listening) done({ child, url: listening[1] });
    });
    child.once('exit', (code) => fail(new Error(`server exited ${code}:\n${stderr}`)));
  });
}

/** A process's resident memory in MiB (Linux). */
export function rssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'))!;
  return Math.round(Number(line.split(/\s+/)[1]) / 1024);
}
