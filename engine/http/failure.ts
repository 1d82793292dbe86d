/**
 * How anything beside an API route says it could not answer (a feature of the app, an export, a switch): one
 * shape, `{ ok: false, status, message }`, the message in words a user reads and the HTTP status the API
 * would have answered. API answers themselves keep each API's own error body (its `errors`).
 */
import { UNAVAILABLE_DETAIL } from './respond.ts';
export interface Failure {
  ok: false;
  status: number;
  message: string;
}

/** A dataset not here yet (or that failed to open): the same words as ceiling rates' own 503. */
export const UNAVAILABLE: Failure = { ok: false, status: 503, message: UNAVAILABLE_DETAIL };

export function failure(status: number, message: string): Failure {
  return { ok: false, status, message };
}
