// Named errors with stable status codes, and the one place that renders any error
// into GitBook's shape: {"error": {"code": <status>, "message": "…"}}.
import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequest extends AppError {
  constructor(message: string) {
    super(400, message);
  }
}

export class Unauthorized extends AppError {
  constructor(message = 'Authentication required: send "Authorization: Bearer <token>" with a valid API token') {
    super(401, message);
  }
}

export class Forbidden extends AppError {
  constructor(message: string) {
    super(403, message);
  }
}

export class NotFound extends AppError {
  constructor(message: string) {
    super(404, message);
  }
}

export class Conflict extends AppError {
  constructor(message: string) {
    super(409, message);
  }
}

export class TooManyRequests extends AppError {
  constructor(message: string) {
    super(429, message);
  }
}

/** A refusal for now, not for good (a queue full): `Retry-After` tells the client when to send it again. */
export class TryAgainLater extends AppError {
  constructor(
    statusCode: 429 | 503,
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(statusCode, message);
  }
}

export interface ErrorBody {
  error: { code: number; message: string };
}

export function errorBody(code: number, message: string): ErrorBody {
  return { error: { code, message } };
}

/** Fastify's own errors for bad requests, with the status each deserves. */
const FASTIFY_CLIENT_ERRORS: Record<string, number> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 400,
  FST_ERR_CTP_EMPTY_JSON_BODY: 400,
  FST_ERR_CTP_BODY_TOO_LARGE: 413,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 415,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 400,
  FST_ERR_CTP_INVALID_TYPE: 400,
  FST_ERR_VALIDATION: 400,
};

/**
 * Database errors that say something about the request rather than a fault in Quire:
 * PostgreSQL refuses NUL characters and invalid encodings in text, a unique index can
 * race a check, and under heavy contention a write may have to be retried.
 */
function databaseInputError(error: { code?: unknown }): ErrorBody['error'] | undefined {
  switch (error.code) {
    case '22021':
    case '22P05':
      return { code: 400, message: 'Text values must not contain NUL characters or invalid UTF-8' };
    case 'SQLITE_BUSY':
    case '40001':
    case '40P01':
      return { code: 503, message: 'The database is busy with other writes; try again in a moment' };
    case '23505':
    case 'SQLITE_CONSTRAINT_UNIQUE':
    case 'SQLITE_CONSTRAINT_PRIMARYKEY':
      return { code: 409, message: 'This conflicts with an existing object; reload and try again' };
    default:
      return undefined;
  }
}

function describeValidation(error: FastifyError): string {
  const first = error.validation?.[0];
  if (!first) return error.message;
  const where = error.validationContext ?? 'request';
  const path = first.instancePath ? first.instancePath.replace(/^\//, '').replace(/\//g, '.') : '';
  const params = first.params as Record<string, unknown>;
  const field =
    first.keyword === 'required'
      ? [path, String(params.missingProperty)].filter(Boolean).join('.')
      : first.keyword === 'additionalProperties'
        ? [path, String(params.additionalProperty)].filter(Boolean).join('.')
        : path;
  const subject = field ? `${where}.${field}` : where;
  switch (first.keyword) {
    case 'required':
      return `${subject} is required`;
    case 'additionalProperties':
      return `${subject} is not a known field`;
    case 'enum':
      return `${subject} must be one of: ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'pattern':
    case 'format': {
      // A pattern or a format is for machines; the field's description says it for people.
      const description = ((first as { parentSchema?: { description?: unknown } }).parentSchema)?.description;
      return typeof description === 'string' ? `${subject} is not of the expected form: ${description}` : `${subject} ${first.message ?? 'is invalid'}`;
    }
    default:
      return `${subject} ${first.message ?? 'is invalid'}`;
  }
}

/** Bytes in a readable unit: 1 MB, 512 KB. */
function sizeOf(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} bytes`;
}

/** Messages a person can act on for Fastify's body errors; `bodyLimit` is the route's own. */
function bodyErrorMessage(code: string | undefined, bodyLimit: number | undefined): string | undefined {
  switch (code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Send the body as JSON, with the header "Content-Type: application/json"';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return bodyLimit ? `The request body is larger than this operation's limit of ${sizeOf(bodyLimit)}` : undefined;
    default:
      return undefined;
  }
}

export function toErrorBody(error: unknown, bodyLimit?: number): ErrorBody['error'] & { unexpected?: true } {
  if (error instanceof AppError) return { code: error.statusCode, message: error.message };
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) return { code: 400, message: describeValidation(fastifyError) };
  const known = fastifyError.code ? FASTIFY_CLIENT_ERRORS[fastifyError.code] : undefined;
  if (known) return { code: known, message: bodyErrorMessage(fastifyError.code, bodyLimit) ?? fastifyError.message };
  const fromDatabase = databaseInputError(fastifyError);
  if (fromDatabase) return fromDatabase;
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { code: status, message: fastifyError.message };
  }
  return { code: 500, message: 'Internal server error', unexpected: true };
}

export function handleError(error: unknown, request: FastifyRequest, reply: FastifyReply): void {
  const { code, message, unexpected } = toErrorBody(error, request.routeOptions?.bodyLimit);
  if (unexpected) request.log.error({ err: error }, 'unexpected error');
  if (error instanceof TryAgainLater) void reply.header('retry-after', String(error.retryAfterSeconds));
  void reply.code(code).type('application/json; charset=utf-8').send(errorBody(code, message));
}

/**
 * Requests Node's HTTP parser refuses before any route sees them (raw bytes outside
 * ASCII in the URL, headers over Node's limit), answered in the same shape.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) return;
  const [code, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, `The URL and headers of a request may take at most ${sizeOf(maxHeaderSize)}`]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'The request was not sent in time']
        : [400, 'The request is not valid HTTP: a URL must be percent-encoded (UTF-8 bytes as %XX)'];
  const body = JSON.stringify(errorBody(code, message));
  socket.end(
    `HTTP/1.1 ${code} ${STATUS_CODES[code]}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
