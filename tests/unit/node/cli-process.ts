/** The command line as users run it: the bundled bin with plain node, in a child process. */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../../..');
export const BIN = resolve(ROOT, 'adapters/node/dist/bin.js');
export const fixture = (name: string): string => resolve(ROOT, 'tests/fixtures/import', name);

export interface Served {
  url: string;
  stderr: () => string;
  stop(): Promise<void>;
  /** Sends the signal and resolves with the exit code once the process has ended. */
  signal(name: NodeJS.Signals): Promise<number | null>;
}

/** `offline-gov-api serve …` on a free port; resolves once it says where it listens. */
export function serveCli(args: readonly string[]): Promise<Served> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  return new Promise((resolveServed, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const listening = /listening on (http:\/\/\S+)/.exec(stderr);
      if (listening) resolveServed({ url: listening[1], stderr: () => stderr, stop: () => stop(child), signal: (name) => signal(child, name) });
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code} before listening:\n${stderr}`)));
  });
}

function signal(child: ChildProcess, name: NodeJS.Signals): Promise<number | null> {
  return new Promise((done) => {
    if (child.exitCode !== null) return done(child.exitCode);
    child.once('exit', (code) => done(code));
    child.kill(name);
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null) return done();
    child.once('exit', () => done());
    child.kill('SIGTERM');
  });
}

/** Runs the bin to completion: exit code and output. */
export function runCli(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((done) => child.once('exit', (code) => done({ code, stdout, stderr })));
}
