/**
 * Where a browser context keeps and finds a dataset's bytes (dataset/artifact/acquire.ts): the unpacked copies, a cut
 * download's chunks, the lock that lets one context bring a file at a time, and the decoders of the transfer copies.
 * The DB worker, the service worker and its install step assemble them here, the one way, so what one keeps the
 * others find. The verified files differ by caller (a version's data cache, opened when its version is known).
 */
import type { AcquirePlaces } from '../../dataset/artifact/acquire.ts';
import { unpackedStore } from './unpacked-files.ts';
import { partialStore } from './partial-files.ts';
import { webLock } from './download-lock.ts';
import { browserDecoders } from './brotli.ts';

export function browserPlaces(): Required<Omit<AcquirePlaces, 'files'>> {
  return { unpacked: unpackedStore(), partials: partialStore(), lock: webLock(), decoders: browserDecoders };
}
