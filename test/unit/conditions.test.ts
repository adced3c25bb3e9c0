import { describe, expect, it } from 'vitest';
import { ConditionError, conditionHolds, parseCondition } from '../../src/lib/conditions.ts';

describe('adaptive-content conditions', () => {
  it.each([
    ['visitor.claims.beta == true', { beta: true }, true],
    ['visitor.claims.beta == true', { beta: false }, false],
    ['visitor.claims.beta == true', {}, false],
    ['visitor.claims.plan === "pro" && visitor.claims.seats > 10', { plan: 'pro', seats: 12 }, true],
    ['visitor.claims.plan === "pro" || visitor.claims.admin', { plan: 'free', admin: true }, true],
    ['!visitor.claims.trial', {}, true],
    ['visitor.claims.roles[0] == "editor"', { roles: ['editor'] }, true],
    ['visitor.claims["region"] != "eu" ? false : true', { region: 'eu' }, true],
    ['visitor.claims.constructor', {}, false],
    ['visitor.claims.__proto__', {}, false],
  ])('evaluates %s against %j as %s', (condition, claims, expected) => {
    expect(conditionHolds(condition, claims)).toBe(expected);
  });

  it.each(['visitor.claims.beta ==', 'process.exit(1)', 'visitor.claims.toString()', 'this.x', 'window', '(x) => x', 'a = 1', 'new Date()'])(
    'refuses %s when saved',
    (condition) => {
      expect(() => parseCondition(condition)).toThrow(ConditionError);
    },
  );

  it('hides content whose condition cannot be evaluated', () => {
    expect(conditionHolds('process.exit(1)', {})).toBe(false);
  });
});
