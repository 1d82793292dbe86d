/**
 * What crosses between a component test (Node) and the fake DB client in the fixture page: each call the
 * component makes, as the page records it and as the test answers it. Shared by both sides, so the names
 * and shapes are written once.
 */
import type { DbClient, LoadProgress, ImportProgressReport } from '../../../ui/api/db-client.ts';

/** The client's members the fake answers in the page itself: subscriptions and the worker's plumbing. */
export const LOCAL_MEMBERS = ['onProgress', 'onRecovery', 'lastProgress', 'running', 'servePort', 'restartWorker', 'terminate'] as const;
export type LocalMember = (typeof LOCAL_MEMBERS)[number];

/** The client's methods a test answers (every other member of DbClient). */
export type AnsweredMethod = Exclude<keyof DbClient, LocalMember>;

/** A file handed to the client, as the test sees it (the bytes stay in the page). */
export interface FileInfo {
  file: { name: string; size: number; type: string };
}

/** An argument as it crosses to Node: callbacks stay in the page, files go by name and size. */
export type Wire<T> = T extends (...args: never[]) => unknown ? '[function]' : T extends Blob ? FileInfo : T;
export type WireArgs<A extends unknown[]> = { [I in keyof A]: Wire<A[I]> };

/** One call the component made, in order. */
export interface DbCall {
  method: AnsweredMethod | LocalMember;
  args: unknown[];
}

/** The answer to one call: a value, or an error the call rejects with. */
export type WireAnswer = { ok: true; value: unknown } | { ok: false; message: string };

/** The name of the Node function the page calls for each answer. */
export const ANSWER_BINDING = '__fakeDbAnswer';

/** What the fixture page puts on `window` for the test to drive. */
export interface FixtureApi {
  /**
   * Mounts `<tag>` alone under a host that provides the fake client, with these properties set before its
   * first render; a value `{ $searchParams: 'a=1' }` becomes a URLSearchParams, `{ $fakeDb: true }` the fake client.
   */
  mount(tag: string, properties: Record<string, unknown>): Promise<void>;
  /** Every call the mounted component made, in order. */
  calls(): DbCall[];
  /** Reports load progress to the component's onProgress listeners, as the worker would. */
  progress(progress: LoadProgress): void;
  /** Reports import progress to the callback of the latest import call. */
  importProgress(progress: ImportProgressReport): void;
  /** Starts recording the events of this type that reach the document (they bubble out of shadow roots). */
  listen(type: string): void;
  /** The recorded events of a type: a CustomEvent's `detail`, or the own fields an Event subclass carries. */
  events(type: string): unknown[];
}

declare global {
  interface Window {
    componentFixture?: FixtureApi;
  }
}
