/**
 * The DB worker's entry file, and nothing else: its body (worker-body.ts) is built into a chunk of its own
 * (vite.config.ts), which the worker's lazy chunks import in turn. WebKit runs a module worker's entry script
 * a second time when another module imports it; with the body in the entry file, the imports chunk did: a
 * second Comlink listener then answered every call, and each import asked for the import lock twice ("busy").
 */
import './worker-body.ts';

export type { DbWorkerApi } from './worker-body.ts';
