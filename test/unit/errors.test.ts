import { describe, expect, it } from 'vitest';
import { Conflict, toErrorBody } from '../../src/errors.ts';

describe('error rendering', () => {
  it('renders named errors with their status', () => {
    expect(toErrorBody(new Conflict('taken'))).toEqual({ code: 409, message: 'taken' });
  });

  it('turns database refusals caused by input into 4xx, and hides unexpected errors', () => {
    expect(toErrorBody(Object.assign(new Error('invalid byte sequence'), { code: '22021' })).code).toBe(400);
    expect(toErrorBody(Object.assign(new Error('dup'), { code: '23505' })).code).toBe(409);
    expect(toErrorBody(Object.assign(new Error('dup'), { code: 'SQLITE_CONSTRAINT_UNIQUE' })).code).toBe(409);
    expect(toErrorBody(new Error('secret internals'))).toEqual({ code: 500, message: 'Internal server error', unexpected: true });
  });
});
