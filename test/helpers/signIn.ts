// Speaking to Quire as the browser app does: signed in by the quire_session cookie,
// writes carrying the session's CSRF token.
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { TestApp } from './app.ts';
import { createSignInLink } from '../../src/services/sessions.ts';

export interface BrowserSession {
  /** The cookie's value. */
  secret: string;
  csrfToken: string;
  id: string;
}

/** The Set-Cookie header that sets quire_session, whole. */
export function sessionSetCookie(headers: Record<string, unknown>): string | undefined {
  const values = ([] as unknown[]).concat(headers['set-cookie'] ?? []) as string[];
  return values.find((value) => value.startsWith('quire_session='));
}

/** The session an answer signed in with: its cookie and its body's session. */
export function sessionOf(response: { headers: Record<string, unknown>; body: string }): BrowserSession {
  const cookie = sessionSetCookie(response.headers);
  expect(cookie, `no session cookie in ${response.body.slice(0, 200)}`).toBeDefined();
  const secret = /^quire_session=([^;]*)/.exec(cookie!)![1];
  const { session } = JSON.parse(response.body);
  return { secret, csrfToken: session.csrfToken, id: session.id };
}

export interface BrowserRequest {
  session?: BrowserSession;
  /** The CSRF token to send; the session's by default, null for none. */
  csrf?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
  remoteAddress?: string;
}

/** A request as the app sends it: the cookie, and on writes the CSRF header. */
export async function browser(app: FastifyInstance, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, options: BrowserRequest = {}) {
  const { session, body } = options;
  const csrf = options.csrf === undefined ? session?.csrfToken : options.csrf;
  const response = await app.inject({
    method,
    url,
    remoteAddress: options.remoteAddress,
    headers: {
      ...(session ? { cookie: `quire_session=${session.secret}` } : {}),
      ...(csrf && method !== 'GET' ? { 'x-csrf-token': csrf } : {}),
      ...options.headers,
    },
    ...(body !== undefined ? { payload: body as object } : {}),
  });
  return {
    status: response.statusCode,
    body: response.body ? JSON.parse(response.body) : undefined,
    headers: response.headers as Record<string, unknown>,
    raw: response,
  };
}

/** Signs in with e-mail and password; fails the test unless it succeeds. */
export async function signInWithPassword(app: FastifyInstance, email: string, password: string, remoteAddress?: string): Promise<BrowserSession> {
  const response = await app.inject({ method: 'POST', url: '/auth/sign-in', payload: { email, password }, remoteAddress });
  expect(response.statusCode, response.body).toBe(200);
  return sessionOf(response);
}

/** A one-time sign-in link for a person, as `quire admin sign-in-link` makes. */
export async function signInLinkFor(testApp: TestApp, userId: string) {
  const { ctx } = testApp.app;
  return ctx.db.transaction().execute((trx) => createSignInLink(ctx, trx, userId));
}

/** Gives a person a password through their API token (none was set, so none is asked). */
export async function setPassword(app: FastifyInstance, token: string, password: string): Promise<void> {
  const response = await app.inject({
    method: 'PUT',
    url: '/v1/user/password',
    headers: { authorization: `Bearer ${token}` },
    payload: { password },
  });
  expect(response.statusCode, response.body).toBe(204);
}
