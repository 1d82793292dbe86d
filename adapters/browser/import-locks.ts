/** Web Lock names of an import, shared by the page and the DB worker (kept apart so the page bundles nothing else). */

/** Held while a file is imported, across the tabs of this origin: a second import is refused, not queued. */
export const IMPORT_LOCK = 'offline-gov-api-import';

/**
 * Held by the page for the length of one import. A document's locks go when it does, so the worker can
 * tell, before it stores anything, that the page which asked was reloaded or closed: a worker being torn
 * down may still run for a moment, and must not then make its file active.
 */
export function importOwnerLock(id: string): string {
  return `offline-gov-api-import-owner:${id}`;
}
