import type { ApiErrorCode } from './error-codes.ts';

export type { ApiErrorCode } from './error-codes.ts';

/** The B0.2 error body. */
export interface ErrorBody {
  error: string;
  code: ApiErrorCode;
  errors?: Record<string, string>;
  crumbFail?: true;
}

/**
 * Thrown by handlers and guards; the plugin's error handler turns it into the B0.2 body.
 * Anything else that escapes a handler becomes 500 INTERNAL without details. `code` is a key of
 * the catalogue (error-codes.ts): a new code is added there, with its status and meaning.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ApiErrorCode;
  readonly errors: Record<string, string> | undefined;
  readonly headers: Record<string, string>;
  readonly crumbFail: boolean;

  constructor(
    status: number,
    code: ApiErrorCode,
    message: string,
    extra: { errors?: Record<string, string>; headers?: Record<string, string>; crumbFail?: boolean } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.errors = extra.errors;
    this.headers = extra.headers ?? {};
    this.crumbFail = extra.crumbFail ?? false;
  }

  body(): ErrorBody {
    const body: ErrorBody = { error: this.message, code: this.code };
    if (this.errors) body.errors = this.errors;
    if (this.crumbFail) body.crumbFail = true;
    return body;
  }
}

// Generic failures shared by every endpoint (B0.2). Endpoint-specific texts stay next to
// the handler that raises them, where the spec table for that endpoint can be read.
export const GENERIC = {
  notFound: () => new ApiError(404, 'NOT_FOUND', 'Not found.'),
  methodNotAllowed: (allow: string) =>
    new ApiError(405, 'METHOD_NOT_ALLOWED', 'Method not allowed.', { headers: { allow } }),
  badJson: () => new ApiError(400, 'BAD_JSON', 'Request body is not valid JSON.'),
  notObject: () => new ApiError(400, 'BAD_REQUEST', 'Request body must be a JSON object.'),
  unsupportedMediaType: () => new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Unsupported content type.'),
  bodyTooLarge: () => new ApiError(413, 'BODY_TOO_LARGE', 'Request body too large.'),
  rateLimited: (retryAfterSeconds: number, message = 'Too many requests.') =>
    new ApiError(429, 'RATE_LIMITED', message, { headers: { 'retry-after': String(retryAfterSeconds) } }),
  internal: () => new ApiError(500, 'INTERNAL', 'Something went wrong.'),
  // The database did not answer (down, restarting, network): worth a retry, unlike INTERNAL.
  storeUnavailable: () =>
    new ApiError(503, 'STORE_UNAVAILABLE', "The store's database cannot be reached. Try again in a moment.", { headers: { 'retry-after': '5' } }),
  // The server is stopping (a deploy, Ctrl-C): a request that came on an open connection while
  // it drains. Another server, or this one restarted, answers the retry.
  shuttingDown: () =>
    new ApiError(503, 'SHUTTING_DOWN', 'The server is restarting. Try again in a moment.', { headers: { 'retry-after': '5', connection: 'close' } }),
  badRequest: (message: string) => new ApiError(400, 'BAD_REQUEST', message),
  badQuery: (message = 'Invalid query parameter.') => new ApiError(400, 'BAD_QUERY', message),
};
