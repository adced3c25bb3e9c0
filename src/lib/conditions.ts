// Adaptive-content conditions: GitBook's JavaScript-like expressions over what a
// visitor's claims say (`visitor.claims.beta == true`). jsep parses them; this small
// evaluator walks the tree with no calls, no assignments and own properties only, so
// a condition can read claims and nothing else. Never eval.
import jsep from 'jsep';
import { BadRequest } from '../errors.ts';

export class ConditionError extends Error {}

const BINARY: Record<string, (left: any, right: any) => unknown> = {
  '==': (a, b) => a == b,
  '!=': (a, b) => a != b,
  '===': (a, b) => a === b,
  '!==': (a, b) => a !== b,
  '<': (a, b) => a < b,
  '<=': (a, b) => a <= b,
  '>': (a, b) => a > b,
  '>=': (a, b) => a >= b,
  '+': (a, b) => a + b,
  '-': (a, b) => a - b,
  '*': (a, b) => a * b,
  '/': (a, b) => a / b,
  '%': (a, b) => a % b,
};

const ALLOWED = new Set(['Literal', 'Identifier', 'MemberExpression', 'BinaryExpression', 'LogicalExpression', 'UnaryExpression', 'ConditionalExpression', 'ArrayExpression']);

function check(node: jsep.Expression): void {
  if (!ALLOWED.has(node.type)) throw new ConditionError(`${node.type} is not allowed in a condition`);
  switch (node.type) {
    case 'Identifier':
      if ((node as jsep.Identifier).name !== 'visitor') {
        throw new ConditionError(`unknown name "${(node as jsep.Identifier).name}": conditions read visitor.claims`);
      }
      return;
    case 'MemberExpression': {
      const member = node as jsep.MemberExpression;
      check(member.object);
      if (member.computed) check(member.property);
      return;
    }
    case 'BinaryExpression':
    case 'LogicalExpression': {
      const binary = node as jsep.BinaryExpression;
      if (!(binary.operator in BINARY) && binary.operator !== '&&' && binary.operator !== '||') {
        throw new ConditionError(`operator "${binary.operator}" is not allowed in a condition`);
      }
      check(binary.left);
      check(binary.right);
      return;
    }
    case 'UnaryExpression': {
      const unary = node as jsep.UnaryExpression;
      if (!['!', '-', '+'].includes(unary.operator)) throw new ConditionError(`operator "${unary.operator}" is not allowed`);
      check(unary.argument);
      return;
    }
    case 'ConditionalExpression': {
      const conditional = node as jsep.ConditionalExpression;
      [conditional.test, conditional.consequent, conditional.alternate].forEach(check);
      return;
    }
    case 'ArrayExpression':
      (node as jsep.ArrayExpression).elements.forEach((element) => element && check(element));
      return;
  }
}

/** Parses and checks a condition; throws ConditionError with a readable reason. */
export function parseCondition(source: string): jsep.Expression {
  let tree: jsep.Expression;
  try {
    tree = jsep(source);
  } catch (error) {
    throw new ConditionError((error as Error).message);
  }
  check(tree);
  return tree;
}

function evaluate(node: jsep.Expression, scope: Record<string, unknown>): unknown {
  switch (node.type) {
    case 'Literal':
      return (node as jsep.Literal).value;
    case 'Identifier':
      return scope[(node as jsep.Identifier).name];
    case 'MemberExpression': {
      const member = node as jsep.MemberExpression;
      const target = evaluate(member.object, scope);
      const key = member.computed ? evaluate(member.property, scope) : (member.property as jsep.Identifier).name;
      if (target === null || typeof target !== 'object') return undefined;
      return Object.prototype.hasOwnProperty.call(target, String(key)) ? (target as Record<string, unknown>)[String(key)] : undefined;
    }
    case 'BinaryExpression':
    case 'LogicalExpression': {
      const binary = node as jsep.BinaryExpression;
      if (binary.operator === '&&') return evaluate(binary.left, scope) && evaluate(binary.right, scope);
      if (binary.operator === '||') return evaluate(binary.left, scope) || evaluate(binary.right, scope);
      return BINARY[binary.operator](evaluate(binary.left, scope), evaluate(binary.right, scope));
    }
    case 'UnaryExpression': {
      const unary = node as jsep.UnaryExpression;
      const value = evaluate(unary.argument, scope) as number;
      return unary.operator === '!' ? !value : unary.operator === '-' ? -value : +value;
    }
    case 'ConditionalExpression': {
      const conditional = node as jsep.ConditionalExpression;
      return evaluate(conditional.test, scope) ? evaluate(conditional.consequent, scope) : evaluate(conditional.alternate, scope);
    }
    case 'ArrayExpression':
      return (node as jsep.ArrayExpression).elements.map((element) => (element ? evaluate(element, scope) : undefined));
    default:
      return undefined;
  }
}

/** Whether a visitor with these claims sees the content; a broken condition hides it. */
export function conditionHolds(source: string, claims: Record<string, unknown>): boolean {
  try {
    return Boolean(evaluate(parseCondition(source), { visitor: { claims } }));
  } catch {
    return false;
  }
}

/** Checks a condition before it is saved; unset (undefined) keeps it, null removes it. */
export function checkedCondition(field: string, condition: string | null | undefined): string | null | undefined {
  if (condition === undefined || condition === null) return condition;
  try {
    parseCondition(condition);
  } catch (error) {
    throw new BadRequest(`${field}: the expression is invalid (${(error as ConditionError).message})`);
  }
  return condition;
}
