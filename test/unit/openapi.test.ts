import { describe, expect, it } from 'vitest';
import { readOpenApiDocument } from '../../src/content/openapi.ts';

const info = 'info:\n  title: T\n  version: "1"\n';

describe('reading OpenAPI documents', () => {
  it('reads OpenAPI 3.0 and 3.1 YAML and Swagger 2.0 JSON', async () => {
    for (const [text, version] of [
      [`openapi: 3.0.3\n${info}paths: {}\n`, '3.0.3'],
      [`openapi: 3.1.0\n${info}paths: {}\n`, '3.1.0'],
      [JSON.stringify({ swagger: '2.0', info: { title: 'T', version: '1' }, paths: {} }), '2.0'],
    ]) {
      const reading = await readOpenApiDocument(text);
      expect(reading).toMatchObject({ ok: true, version });
    }
  });

  it('names a YAML syntax error with its place', async () => {
    const reading = await readOpenApiDocument('openapi: [3.0\n');
    expect(reading.ok).toBe(false);
    if (!reading.ok) expect(reading.problems[0]).toMatchObject({ code: 'SYNTAX', message: expect.stringMatching(/line \d+/) });
  });

  it('refuses documents that are not OpenAPI at all', async () => {
    for (const text of ['- a list', 'just text', 'title: no version field']) {
      const reading = await readOpenApiDocument(text);
      expect(reading.ok, text).toBe(false);
      if (!reading.ok) expect(reading.problems[0].code).toBe('NOT_OPENAPI');
    }
    const future = await readOpenApiDocument(`openapi: 4.0.0\n${info}paths: {}\n`);
    expect(future.ok).toBe(false);
    if (!future.ok) expect(future.problems[0].message).toMatch(/Unsupported OpenAPI version/);
  });

  it('lists each schema violation with the path where it is', async () => {
    const reading = await readOpenApiDocument('openapi: 3.0.3\ninfo:\n  version: "1"\npaths:\n  /a:\n    get:\n      responses: 7\n');
    expect(reading.ok).toBe(false);
    if (!reading.ok) {
      expect(reading.problems.map((problem) => problem.message)).toEqual(
        expect.arrayContaining(["/info: must have required property 'title'"]),
      );
    }
  });

  it('leaves external references as written instead of reading files or URLs', async () => {
    const text = `openapi: 3.0.3\n${info}paths: {}\ncomponents:\n  schemas:\n    Secret:\n      $ref: /etc/passwd\n    Remote:\n      $ref: http://169.254.169.254/latest\n`;
    const reading = await readOpenApiDocument(text);
    expect(reading.ok).toBe(true);
    if (reading.ok) expect((reading.document.components as any).schemas.Secret).toEqual({ $ref: '/etc/passwd' });
  });
});
