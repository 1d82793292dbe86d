import type { ApiErrors } from '../http/routes.ts';
import type { ApiResponse } from '../http/types.ts';
import { json } from '../http/respond.ts';

/** Error bodies in the NestJS shape production answers with. */
export function badRequest(messages: string[]): ApiResponse {
  return json(400, { statusCode: 400, message: messages, error: 'Bad Request' });
}

export function websiteNotFound(): ApiResponse {
  return json(404, { statusCode: 404, message: 'No website found for provided target url', error: 'Not Found' });
}

export const siteScanningErrors: ApiErrors = {
  notFound: ({ method, path }) => json(404, { statusCode: 404, message: `Cannot ${method} ${path}`, error: 'Not Found' }),
  methodNotAllowed: () => json(405, { statusCode: 405, message: 'Method Not Allowed', error: 'Method Not Allowed' }),
  internal: () => json(500, { statusCode: 500, message: 'Internal server error' }),
  unavailable: () => json(503, { statusCode: 503, message: 'Website dataset not loaded', error: 'Service Unavailable' }),
};
