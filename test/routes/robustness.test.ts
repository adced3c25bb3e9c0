// Walks every operation of Quire's own /openapi.json and sends it malformed requests:
// every answer must be a 4xx with the error shape, never a 2xx or a 5xx. Routes
// added later are covered without touching this file.
import { describe, expect, it } from 'vitest';
import { request, useTestApp } from '../helpers/app.ts';
import { buildOrganization } from '../helpers/factories.ts';

const testApp = useTestApp({ QUIRE_BODY_LIMIT: '64kb' });

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  maxLength?: number;
  minLength?: number;
  maximum?: number;
  enum?: unknown[];
  items?: JsonSchema;
  maxItems?: number;
}
interface Operation {
  method: Method;
  path: string;
  pathParams: string[];
  query: Record<string, JsonSchema>;
  body?: JsonSchema;
  /** Needs no API token (its document says `security: []`). */
  open: boolean;
  /** Cannot be answered without a body or a query parameter. */
  needsInput: boolean;
}

const ODD_IDS = ['%00', 'a'.repeat(150), '..%2F..%2Fetc', '%F0%9F%98%80', "'%20OR%201=1--", '%E0%A4%A', '-1', '0'];

function operations(document: any): Operation[] {
  const found: Operation[] = [];
  for (const [path, item] of Object.entries<any>(document.paths)) {
    for (const [method, operation] of Object.entries<any>(item)) {
      const parameters: any[] = operation.parameters ?? [];
      found.push({
        method: method.toUpperCase() as Method,
        path,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        query: Object.fromEntries(parameters.filter((p) => p.in === 'query').map((p) => [p.name, p.schema])),
        body: operation.requestBody?.content?.['application/json']?.schema,
        open: Array.isArray(operation.security) && operation.security.length === 0,
        needsInput: operation.requestBody?.required === true || parameters.some((p) => p.in === 'query' && p.required),
      });
    }
  }
  return found;
}

function wrongTypeFor(schema: JsonSchema): unknown {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return 12345;
    case 'integer':
    case 'number':
      return 'not a number';
    case 'boolean':
      return 'not a boolean';
    case 'array':
      return 'not an array';
    case 'object':
      return 'not an object';
    default:
      return undefined;
  }
}

/** Malformed bodies for a schema: each field of the wrong type, over its limits, off its enum. */
function malformedBodies(schema: JsonSchema): Array<{ label: string; body: unknown }> {
  const bodies: Array<{ label: string; body: unknown }> = [
    { label: 'an array instead of an object', body: [] },
    { label: 'a string instead of an object', body: 'text' },
  ];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const wrong = wrongTypeFor(property);
    if (wrong !== undefined) bodies.push({ label: `${name} of the wrong type`, body: { [name]: wrong } });
    if (property.maxLength !== undefined) {
      bodies.push({ label: `${name} over ${property.maxLength} characters`, body: { [name]: 'x'.repeat(property.maxLength + 1) } });
    }
    if (property.enum) bodies.push({ label: `${name} off its enum`, body: { [name]: 'definitely-not-allowed' } });
    if (property.type === 'array' && property.items) {
      const wrongItem = wrongTypeFor(property.items);
      if (wrongItem !== undefined) bodies.push({ label: `${name} with a wrong item`, body: { [name]: [wrongItem] } });
    }
  }
  if (schema.properties && Object.keys(schema.properties).some((name) => schema.properties![name].type === 'string')) {
    const name = Object.keys(schema.properties).find((key) => schema.properties![key].type === 'string')!;
    bodies.push({ label: `${name} with a NUL character`, body: { [name]: 'a\u0000b' } });
  }
  return bodies;
}

function malformedQueries(query: Record<string, JsonSchema>): Array<{ label: string; query: Record<string, string> }> {
  const queries: Array<{ label: string; query: Record<string, string> }> = [];
  for (const [name, schema] of Object.entries(query)) {
    if (schema.type === 'integer' || schema.type === 'number') {
      queries.push({ label: `${name} not a number`, query: { [name]: 'abc' } });
      if (schema.maximum !== undefined) queries.push({ label: `${name} over its maximum`, query: { [name]: String(schema.maximum + 1) } });
    }
    if (schema.type === 'boolean') queries.push({ label: `${name} not a boolean`, query: { [name]: 'maybe' } });
    if (schema.enum) queries.push({ label: `${name} off its enum`, query: { [name]: 'definitely-not-allowed' } });
    if (schema.maxLength !== undefined) {
      queries.push({ label: `${name} over ${schema.maxLength} characters`, query: { [name]: 'x'.repeat(schema.maxLength + 1) } });
    }
    if (name === 'page') queries.push({ label: 'a forged cursor', query: { page: Buffer.from('["x"]').toString('base64url') } });
  }
  return queries;
}

function expectClientError(response: { status: number; body: any }, what: string) {
  const summary = `${what} → ${response.status} ${JSON.stringify(response.body)?.slice(0, 200)}`;
  expect(response.status >= 400 && response.status < 500, summary).toBe(true);
  expect(response.body?.error?.code, summary).toBe(response.status);
  expect(typeof response.body?.error?.message, summary).toBe('string');
}

describe('every operation of /openapi.json refuses malformed input with a 4xx', () => {
  // Thousands of requests over some 200 operations: 15-20 s on PostgreSQL alone on a
  // 2-core machine, past the suite's 30 s beside the rest of it on a slow day (SQLite 4 s).
  it('walks the whole document', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const document = (await request(testApp.app, 'GET', '/openapi.json')).body;
    const all = operations(document);
    expect(all.length).toBeGreaterThan(20);
    const realPath = (op: Operation) =>
      op.pathParams.reduce((path, name) => path.replace(`{${name}}`, name === 'organizationId' ? organizationId : 'doesNotExist'), op.path);

    let checked = 0;
    for (const op of all) {
      const path = realPath(op);
      if (op.body) {
        for (const { label, body } of malformedBodies(op.body)) {
          expectClientError(await request(testApp.app, op.method, path, { token: admin.token, body }), `${op.method} ${op.path} with ${label}`);
          checked++;
        }
        const badJson = await testApp.app.inject({
          method: op.method,
          url: path,
          headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
          payload: '{"title": "unterminated',
        });
        expectClientError({ status: badJson.statusCode, body: badJson.json() }, `${op.method} ${op.path} with malformed JSON`);
        const huge = await testApp.app.inject({
          method: op.method,
          url: path,
          headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
          payload: JSON.stringify({ title: 'x'.repeat(70 * 1024) }),
        });
        expectClientError({ status: huge.statusCode, body: huge.json() }, `${op.method} ${op.path} over-size`);
        checked += 2;
      }
      for (const { label, query } of malformedQueries(op.query)) {
        expectClientError(await request(testApp.app, op.method, path, { token: admin.token, query }), `${op.method} ${op.path} with ${label}`);
        checked++;
      }
      for (const param of op.pathParams) {
        for (const oddId of ODD_IDS) {
          const oddPath = realPath(op).replace(param === 'organizationId' ? organizationId : 'doesNotExist', oddId);
          const response = await testApp.app.inject({
            method: op.method,
            url: oddPath,
            headers: { authorization: `Bearer ${admin.token}` },
          });
          expectClientError({ status: response.statusCode, body: response.json() }, `${op.method} ${oddPath}`);
          checked++;
        }
      }
      const unauthenticated = await request(testApp.app, op.method, path, {});
      const withoutToken = `${op.method} ${op.path} without a token → ${unauthenticated.status}`;
      if (!op.open) expect(unauthenticated.status, withoutToken).toBe(401);
      else if (op.needsInput) expect(unauthenticated.status, withoutToken).toBe(400);
      // An open operation that needs nothing (the sign-in state, signing out) answers without a token.
      else expect(unauthenticated.status !== 401 && unauthenticated.status < 500, withoutToken).toBe(true);
    }
    expect(checked).toBeGreaterThan(200);
  }, 120_000);
});
