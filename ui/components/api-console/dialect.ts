/**
 * The console's answer dialect switch: the app setting the service worker answers every API request in
 * (adapters/browser/dialect-setting.ts), told to the service worker as soon as it changes.
 */
import { readDialect, writeDialect } from '../../../adapters/browser/dialect-setting.ts';
import type { Dialect } from '../../../engine/dialect/dialect.ts';

export const DIALECT_CHOICES: readonly { value: Dialect; label: string; help: string }[] = [
  { value: 'interface', label: 'Interface (2.0)', help: "The published 2.0 interface and GSA's 2024 documentation: the app's default." },
  {
    value: 'production',
    label: 'Production (2026)',
    help: 'As production answered in the 2022–2026 recordings: its field names, types, key order and values. With it, only the origin and the key change when switching.',
  },
];

export function loadDialect(): Promise<Dialect> {
  return typeof caches === 'undefined' ? Promise.resolve('interface') : readDialect(location.origin);
}

export async function saveDialect(dialect: Dialect): Promise<void> {
  await writeDialect(location.origin, dialect);
  navigator.serviceWorker?.controller?.postMessage({ type: 'dialect-changed' });
}
