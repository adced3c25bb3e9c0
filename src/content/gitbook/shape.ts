// Whether a value sent as a JSONDocument has the document's shape, so that writing it
// as markdown never meets a node it cannot read. Node kinds and data are GitBook's to
// grow: an unknown block keeps its words, so only the structure is checked here, and
// the one datum a reader cannot do without, an emoji's code.
import { glyphOf } from './emoji.ts';

/** Documents nest blocks this deep at most (lists in tabs in hints…); deeper is refused. */
const MAX_DEPTH = 64;

/** The first thing wrong with a document's shape, as "at <path>: <what>", or undefined when it is sound. */
export function documentShapeError(value: unknown): string | undefined {
  const isObject = (candidate: unknown): candidate is Record<string, unknown> =>
    typeof candidate === 'object' && candidate !== null && !Array.isArray(candidate);
  const check = (node: unknown, path: string, depth: number): string | undefined => {
    if (depth > MAX_DEPTH) return `${path}: nested more than ${MAX_DEPTH} levels deep`;
    if (!isObject(node)) return `${path}: must be an object`;
    if (node.object === 'text') {
      if (!Array.isArray(node.leaves)) return `${path}.leaves: must be an array`;
      for (const [index, leaf] of node.leaves.entries()) {
        if (!isObject(leaf) || typeof leaf.text !== 'string') return `${path}.leaves[${index}].text: must be a string`;
        if (leaf.marks !== undefined && !Array.isArray(leaf.marks)) return `${path}.leaves[${index}].marks: must be an array`;
        for (const [markIndex, mark] of ((leaf.marks as unknown[]) ?? []).entries()) {
          if (!isObject(mark) || typeof mark.type !== 'string') return `${path}.leaves[${index}].marks[${markIndex}].type: must be a string`;
        }
      }
      return undefined;
    }
    if (node.object !== 'block' && node.object !== 'inline') return `${path}.object: must be "block", "inline" or "text"`;
    if (typeof node.type !== 'string') return `${path}.type: must be a string`;
    if (node.data !== undefined && !isObject(node.data)) return `${path}.data: must be an object`;
    if (node.object === 'inline' && node.type === 'emoji' && !(typeof node.data?.code === 'string' && glyphOf(node.data.code))) {
      return `${path}.data.code: must be an emoji's code points in hex, joined by dashes ("1f389", "1f469-200d-1f4bb")`;
    }
    if (node.nodes !== undefined && !Array.isArray(node.nodes)) return `${path}.nodes: must be an array`;
    for (const [index, child] of ((node.nodes as unknown[]) ?? []).entries()) {
      const error = check(child, `${path}.nodes[${index}]`, depth + 1);
      if (error) return error;
    }
    if (node.fragments !== undefined && !Array.isArray(node.fragments)) return `${path}.fragments: must be an array`;
    for (const [index, fragment] of ((node.fragments as unknown[]) ?? []).entries()) {
      if (!isObject(fragment) || !Array.isArray(fragment.nodes)) return `${path}.fragments[${index}].nodes: must be an array`;
      for (const [childIndex, child] of fragment.nodes.entries()) {
        const error = check(child, `${path}.fragments[${index}].nodes[${childIndex}]`, depth + 1);
        if (error) return error;
      }
    }
    return undefined;
  };
  if (!isObject(value) || value.object !== 'document') return 'must be a JSONDocument: {"object": "document", "nodes": [...]}';
  if (!Array.isArray(value.nodes)) return 'nodes: must be an array';
  for (const [index, node] of value.nodes.entries()) {
    const error = check(node, `nodes[${index}]`, 1);
    if (error) return error;
    if ((node as Record<string, unknown>).object !== 'block') return `nodes[${index}].object: a document holds blocks`;
  }
  return undefined;
}
