import type { ApiErrors } from '../http/routes.ts';
import type { ApiResponse } from '../http/types.ts';
import { json } from '../http/respond.ts';

/** Error bodies in the NestJS shape production answers with (Nest ≥ 8 writes message, error, statusCode). */
export function badRequest(messages: string[]): ApiResponse {
  return json(400, { message: messages, error: 'Bad Request', statusCode: 400 });
}

/** Express's answer to a path or method no route takes. */
const cannot = ({ method, path }: { method: string; path: string }): ApiResponse =>
  json(404, { message: `Cannot ${method} ${path}`, error: 'Not Found', statusCode: 404 });

export function websiteNotFound(): ApiResponse {
  return json(404, { statusCode: 404, message: 'No website found for provided target url', error: 'Not Found' });
}

export const siteScanningErrors: ApiErrors = {
  notFound: cannot,
  // Production's routes take GET only: Express answers any other method as a path it has no route for.
  methodNotAllowed: cannot,
  internal: () => json(500, { statusCode: 500, message: 'Internal server error' }),
  unavailable: () => json(503, { statusCode: 503, message: 'Website dataset not loaded', error: 'Service Unavailable' }),
};
