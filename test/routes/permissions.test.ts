// Plays the permission matrix (permissionMatrix.ts) against a live app: every
// operation of /openapi.json must have a row, and every cell must hold.
import { beforeAll, describe, expect, it } from 'vitest';
import { request, useTestApp } from '../helpers/app.ts';
import { buildWorld, CALLERS, MATRIX, type CallerName, type Row, type World } from './permissionMatrix.ts';

const testApp = useTestApp({ QUIRE_RATE_LIMIT: '0', QUIRE_ALLOW_PRIVATE_URLS: 'true' });
let world: World;

beforeAll(async () => {
  world = await buildWorld(testApp);
});

const PART_SIZE = 30;
// The matrix in its order (a row may rely on what the rows before it left), cut into parts
// named by their first and last operations.
const PARTS = Array.from({ length: Math.ceil(MATRIX.length / PART_SIZE) }, (_, index) => {
  const rows = MATRIX.slice(index * PART_SIZE, (index + 1) * PART_SIZE);
  return { rows, title: `from ${rows[0].operation} to ${rows[rows.length - 1].operation}` };
});

function outcome(status: number): string {
  return status >= 200 && status < 300 ? '2xx' : String(status);
}

async function play(row: Row, callers: readonly CallerName[] = CALLERS, bodies: string[] = []): Promise<string[]> {
  const [method, template] = row.operation.split(' ') as ['GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', string];
  const cells: string[] = [];
  for (const caller of callers) {
    const params = { ...world.params, ...(row.fresh ? await row.fresh(world, testApp) : {}) };
    const path = template.replace(/\{([^}]+)\}/g, (_whole, name: string) => {
      if (!(name in params)) throw new Error(`${row.operation}: the fixture has no "${name}"`);
      return params[name];
    });
    const response = await request(testApp.app, method, path, { token: world.tokens[caller], body: row.body?.(world, params), query: row.query });
    cells.push(outcome(response.status));
    bodies.push(JSON.stringify(response.body ?? null));
    await row.after?.(world, testApp, caller);
  }
  return cells;
}

// In parts of 30 operations, each its own test: the whole matrix is over two thousand
// requests, longer than one test's time on a slow machine's PostgreSQL.
describe('the permission matrix', () => {
  it('has exactly one row for every operation of /openapi.json', async () => {
    const document = (await request(testApp.app, 'GET', '/openapi.json')).body;
    const operations = Object.entries<Record<string, unknown>>(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const rows = MATRIX.map((row) => row.operation);
    expect(rows.filter((operation, index) => rows.indexOf(operation) !== index), 'operations with two rows').toEqual([]);
    expect(operations.filter((operation) => !rows.includes(operation)), 'operations without a row: classify them in permissionMatrix.ts').toEqual([]);
    expect(rows.filter((operation) => !operations.includes(operation)), 'rows for operations Quire does not have').toEqual([]);
  });

  for (const { rows, title } of PARTS) it(`gives every caller exactly the outcome the matrix says, ${title}`, async () => {
    const differences: string[] = [];
    for (const row of rows) {
      const actual = (await play(row)).join(' ');
      if (actual !== row.expect) differences.push(`${row.operation}\n    expected ${row.expect}\n    actual   ${actual}`);
    }
    expect(differences, `callers ${CALLERS.join(' ')}`).toEqual([]);
  });

  describe('opens only the published content of a space on a public published site to another organization, and no e-mail address', () => {
    beforeAll(async () => {
      const admin = world.tokens.admin;
      const site = `/v1/orgs/${world.params.organizationId}/sites/${world.params.siteId}`;
      expect((await request(testApp.app, 'PATCH', site, { token: admin, body: { visibility: 'public' } })).status).toBe(200);
      expect((await request(testApp.app, 'POST', `${site}/publish`, { token: admin })).status).toBeLessThan(300);
      world.params.revisionId = (await request(testApp.app, 'GET', `/v1/spaces/${world.params.spaceId}`, { token: admin })).body.revision;
    });

    for (const { rows, title } of PARTS) it(title, async () => {
      const outColumn = CALLERS.indexOf('out');
      const differences: string[] = [];
      const leaks: string[] = [];
      for (const row of rows) {
        const bodies: string[] = [];
        const [actual] = await play(row, ['out'], bodies);
        const expected = row.published ?? row.expect.split(' ')[outColumn];
        if (actual !== expected) differences.push(`${row.operation}: expected ${expected}, actual ${actual}`);
        const leaked = world.memberEmails.filter((email) => bodies.some((body) => body.includes(email)));
        if (leaked.length > 0) leaks.push(`${row.operation}: ${leaked.join(', ')}`);
      }
      expect(differences, 'the "out" caller on a public published site').toEqual([]);
      expect(leaks, 'answers to another organization carrying members\' e-mail addresses').toEqual([]);
    });
  });
});
