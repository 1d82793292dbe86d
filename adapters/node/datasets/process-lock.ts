/**
 * A lock between processes on this machine: a file made only if absent, holding the holder's process id. A lock left
 * by a process that is no longer running is taken over (it was killed, or crashed).
 */
import { readFile, rm, writeFile } from 'node:fs/promises';

/** Whether a process of that id is running. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface ProcessLockOptions {
  /** While another running process holds it: wait for it (polling every `pollMs`), or throw `busy(holder)`. */
  wait?: boolean;
  pollMs?: number;
  busy?: (holder: number) => Error;
}

/** Takes the lock at `path`; the function it returns gives it back. */
export async function takeProcessLock(path: string, { wait = false, pollMs = 500, busy }: ProcessLockOptions = {}): Promise<() => Promise<void>> {
  for (;;) {
    try {
      await writeFile(path, String(process.pid), { flag: 'wx' });
      return () => rm(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(await readFile(path, 'utf8').catch(() => ''));
      if (holder > 0 && running(holder)) {
        if (!wait) throw (busy ?? ((pid) => new Error(`${path} is held by process ${pid}`)))(holder);
        await new Promise((again) => setTimeout(again, pollMs));
      } else await rm(path, { force: true });
    }
  }
}
