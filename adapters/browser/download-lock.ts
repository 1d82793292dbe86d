import type { ExclusiveLock } from '../../dataset/artifact/acquire.ts';

/**
 * The origin's Web Locks as an ExclusiveLock (the DB worker and the service worker share them), or null where
 * there are none: each context then downloads on its own.
 */
export function webLock(locks: LockManager | undefined = globalThis.navigator?.locks): ExclusiveLock | null {
  if (!locks?.request) return null;
  return (name, task) => locks.request(name, task) as ReturnType<typeof task>;
}
