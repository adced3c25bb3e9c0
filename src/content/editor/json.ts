// Small helpers on JSON values for the mapping: copies, so that a document and the
// editor's state never share an object one of them might change, and key layouts.
import { CANONICAL_KEYS, EMPTY_NODES } from './kinds.ts';

export type JsonObject = Record<string, unknown>;

/** ProseMirror's JSON form of a node, as Node.toJSON writes it and nodeFromJSON reads it. */
export interface ProseMirrorJSON {
  type: string;
  attrs?: JsonObject;
  content?: ProseMirrorJSON[];
  marks?: Array<{ type: string; attrs?: JsonObject }>;
  text?: string;
}

export const isRecord = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Sets a key as JSON.parse would, even `__proto__`, which a plain assignment takes for the prototype. */
export function put(target: JsonObject, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** A deep copy of a JSON value, its keys in their order. */
export function copy<T>(value: T): T {
  if (Array.isArray(value)) return value.map(copy) as T;
  if (!isRecord(value)) return value;
  const out: JsonObject = {};
  for (const key of Object.keys(value)) put(out, key, copy(value[key]));
  return out as T;
}

// One array per distinct layout: a page has a handful, shared by all its nodes. Bounded,
// so that documents with made-up keys cannot grow it without end.
const MAX_LAYOUTS = 1000;
const layouts = new Map<string, string[]>();

/** The order of a node's keys, `nodes` written as EMPTY_NODES where `emptyNodes` says it was an empty list of inlines. */
export function layoutOf(node: JsonObject, emptyNodes: boolean): string[] {
  const keys = Object.keys(node).map((key) => (key === 'nodes' && emptyNodes ? EMPTY_NODES : key));
  const id = keys.join('\n');
  let layout = layouts.get(id);
  if (layout) return layout;
  layout = Object.freeze(keys) as string[];
  if (layouts.size < MAX_LAYOUTS) layouts.set(id, layout);
  return layout;
}

/**
 * The node written from its fields (`undefined` ones left out): in the order of its
 * layout, then those the layout lacks in Quire's order, then the rest in theirs.
 */
export function ordered(fields: JsonObject, layout: unknown): JsonObject {
  const out: JsonObject = {};
  if (Array.isArray(layout)) for (const key of layout) write(out, fields, key === EMPTY_NODES ? 'nodes' : String(key));
  for (const key of CANONICAL_KEYS) write(out, fields, key);
  for (const key of Object.keys(fields)) write(out, fields, key);
  return out;
}

// Not a closure in `ordered`: it runs for every node, and a function made per call costs.
function write(out: JsonObject, fields: JsonObject, key: string): void {
  if (fields[key] !== undefined && !Object.hasOwn(out, key)) put(out, key, fields[key]);
}
