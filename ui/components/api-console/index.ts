export { ApiConsole } from './api-console.ts';
