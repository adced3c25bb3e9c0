// The one way the app speaks to Quire: the public API (/v1) and the sign-in endpoints
// (/auth), as the signed-in person (the session cookie). Writes carry the session's
// CSRF token, which a page of another site cannot read. An error answer becomes an
// ApiError whose message is the server's words, ready to show to people.

/** An answer that was not a success; `message` is meant for people. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

let csrfToken: string | undefined;
let onSignedOut: (() => void) | undefined;

/** The session's CSRF token (from GET /auth/state), sent with every write. */
export function setCsrfToken(token: string | undefined): void {
  csrfToken = token;
}

/** Called when the API answers 401 outside /auth: the session ended (signed out elsewhere, revoked, expired). */
export function whenSignedOut(handler: () => void): void {
  onSignedOut = handler;
}

/** GitBook's error shape is `{ error: { code, message } }`; anything else gets words of our own. */
function messageOf(status: number, body: unknown): string {
  const message = (body as { error?: { message?: unknown } } | undefined)?.error?.message;
  if (typeof message === 'string' && message) return message;
  if (status === 401) return 'You are signed out. Sign in again to continue.';
  if (status === 403) return 'You do not have access to this. Ask an administrator of the organization.';
  if (status === 404) return 'This was not found. It may have been deleted, or the link is wrong.';
  if (status >= 500) return `Quire could not answer just now (error ${status}). Try again in a moment.`;
  return `Quire refused this request (error ${status}). Reload the page and try again.`;
}

function parse(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

export async function request<T>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  let response: Response;
  try {
    response = await fetch(path, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, 'Quire could not be reached. Check your connection, then try again.');
  }
  const answer = parse(await response.text());
  if (!response.ok) {
    if (response.status === 401 && !path.startsWith('/auth/')) onSignedOut?.();
    throw new ApiError(response.status, messageOf(response.status, answer));
  }
  return answer as T;
}

export const api = {
  get: <T>(path: string) => request<T>('GET', path),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, body ?? {}),
  put: <T>(path: string, body?: unknown) => request<T>('PUT', path, body ?? {}),
  patch: <T>(path: string, body?: unknown) => request<T>('PATCH', path, body ?? {}),
  delete: <T = void>(path: string) => request<T>('DELETE', path),
};

/** A path segment, escaped. */
export const segment = encodeURIComponent;
