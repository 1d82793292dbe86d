/**
 * The library entry (`import … from 'offline-gov-api'`): the engine and its datasets in Node, and the doors
 * built on it. MSW handlers are a separate entry (`offline-gov-api/msw`) so msw stays optional.
 */
export { createEngine, Engine, type EngineEvents, type ApiRequest, type ApiResponse, type DatasetName, type Dialect, DIALECTS } from '../../engine/index.ts';
export { openEngine, type OpenEngineOptions, type OpenedEngine } from './datasets/open-engine.ts';
export { openBuiltDatasets, openDatasetBytes, openDatasetFile, type DatasetFromFile } from './datasets/dataset-files.ts';
export { createApp, startServer, type ListenOptions, type RunningServer, type ServerOptions } from './doors/server.ts';
export { withFaults, type Faults } from './doors/faults.ts';
export type { ApiBackend } from './backends/backend.ts';
export { createMcpServer } from './doors/mcp.ts';
