// Generated GitBook documents for property tests: over every block, inline and mark
// kind of the editor's schema, and kinds and fields it does not know. `tame` documents
// are shaped as Quire stores them (each kind where GitBook puts it, texts in normal
// form, fields in Quire's order); wild ones put anything anywhere, in any order.
import fc from 'fast-check';
import { normalise } from '../../src/content/gitbook/fromMarkdown.ts';
import type { JSONDocument } from '../../src/content/gitbook/model.ts';
import { BLOCK_KINDS, INLINE_KINDS, MARK_KINDS, type Kind } from '../../src/content/editor/kinds.ts';

type Json = Record<string, unknown>;

export const UNKNOWN_BLOCK = 'x-widget';
export const UNKNOWN_INLINE = 'x-chip';
export const UNKNOWN_MARK = 'x-glow';

const small = { maxLength: 3 };
const data = fc.dictionary(fc.constantFrom('ref', 'style', 'title', 'syntax', 'checked', '__proto__', 'x-unknown'), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
const extraField = fc.option(fc.record({ 'x-field': fc.jsonValue({ maxDepth: 1 }) }), { nil: undefined });

const mark = fc.oneof(
  fc.constantFrom(...MARK_KINDS.map((entry) => entry.type).filter((type) => type !== 'color'), UNKNOWN_MARK).map((type) => ({ object: 'mark', type })),
  fc.record({ text: fc.constantFrom('red', 'blue'), background: fc.constantFrom('yellow') }, { requiredKeys: [] }).map((color) => ({ object: 'mark', type: 'color', data: color })),
);
const rank = (type: string) => { const at = MARK_KINDS.findIndex((entry) => entry.type === type); return at < 0 ? MARK_KINDS.length : at; };
const marks = (tame: boolean) =>
  tame ? fc.uniqueArray(mark, { selector: (each) => each.type, ...small }).map((list) => list.sort((a, b) => rank(a.type) - rank(b.type))) : fc.array(mark, small);
const leaf = (tame: boolean) => fc.record({ object: fc.constant('leaf'), text: tame ? fc.string({ minLength: 1, maxLength: 8 }) : fc.string({ maxLength: 4 }), marks: marks(tame) });
const text = (tame: boolean) => fc.record({ object: fc.constant('text'), leaves: fc.array(leaf(tame), { minLength: tame ? 1 : 0, maxLength: 3 }) });

/** A node's fields in Quire's order, or (wild) the other way round. */
function shaped(fields: Json, reversed: boolean): Json {
  const keys = Object.keys(fields).filter((key) => fields[key] !== undefined);
  return Object.fromEntries((reversed ? keys.reverse() : keys).map((key) => [key, fields[key]]));
}

const kindsOf = (types: string[] | undefined, among: Kind[]) => (types ? among.filter((entry) => types.includes(entry.type)) : among);
const topBlocks = BLOCK_KINDS.filter((entry) => !BLOCK_KINDS.some((parent) => parent.children?.includes(entry.type)));

export function documents(tame: boolean): fc.Arbitrary<JSONDocument> {
  const reversed = tame ? fc.constant(false) : fc.boolean();
  const key = fc.option(fc.string({ minLength: 1, maxLength: 4 }), { nil: undefined });
  const isVoid = (entry: Kind | undefined) => (tame ? fc.constant(entry?.isVoid ?? true) : fc.option(fc.boolean(), { nil: undefined }));

  const memo = new Map<string, fc.Arbitrary<unknown>>();
  const cached = (id: string, make: () => fc.Arbitrary<unknown>) => memo.get(id) ?? (memo.set(id, make()), memo.get(id)!);

  const node = (entry: Kind | undefined, inline: boolean, depth: number): fc.Arbitrary<unknown> =>
    cached(`${entry?.name}:${inline}:${depth}`, () => {
      const children =
        !entry ? fc.constant(undefined)
        : entry.holds === 'inlines' ? inlines(entry.children, depth)
        : entry.holds === 'blocks' ? blocks(entry.children, depth)
        : fc.constant(undefined);
      const fragments = entry?.holds === 'fragments' || entry?.type === 'annotation' ? fc.array(fragment(depth), { maxLength: 2 }) : fc.constant(undefined);
      return fc
        .record({ isVoid: isVoid(entry), data, meta: fc.option(data, { nil: undefined }), nodes: children, fragments, key, extra: extraField, reversed })
        .map(({ extra, reversed, ...fields }) =>
          shaped({ object: inline ? 'inline' : 'block', type: entry?.type ?? (inline ? UNKNOWN_INLINE : UNKNOWN_BLOCK), ...fields, ...extra }, reversed));
    });

  const fragment = (depth: number): fc.Arbitrary<unknown> =>
    cached(`fragment:${depth}`, () =>
      fc
        .record({ fragment: fc.constantFrom('caption', 'expandable-title', 'r0c0'), type: fc.option(fc.constantFrom('expandable-body', 'annotation-body'), { nil: undefined }), nodes: blocks(undefined, depth), key, reversed })
        .map(({ reversed, ...fields }) => shaped({ object: 'fragment', ...fields }, reversed)));

  // Below depth 0 only atoms and texts, so that documents stay small.
  const inlines = (types: string[] | undefined, depth: number) => {
    const kinds = kindsOf(types, INLINE_KINDS).filter((entry) => depth > 0 || entry.holds === 'nothing');
    const one = fc.oneof(text(tame), ...kinds.map((entry) => node(entry, true, depth - 1)), node(undefined, true, 0), ...(tame ? [] : wildOnes(depth)));
    return fc.array(one, { maxLength: 4 });
  };
  const blocks = (types: string[] | undefined, depth: number): fc.Arbitrary<unknown[]> => {
    const kinds = kindsOf(types, types ? BLOCK_KINDS : topBlocks).filter((entry) => depth > 0 || entry.holds === 'nothing' || entry.holds === 'inlines');
    const one = fc.oneof(...kinds.map((entry) => node(entry, false, Math.max(depth - 1, 0))), node(undefined, false, 0), ...(tame ? [] : wildOnes(depth)));
    return fc.array(one, { maxLength: 3 });
  };
  // Anything anywhere: inlines among blocks, list items outside lists, texts, bare values.
  const wildOnes = (depth: number): Array<fc.Arbitrary<unknown>> => [
    ...BLOCK_KINDS.filter((entry) => entry.holds === 'nothing').map((entry) => node(entry, false, 0)),
    node(INLINE_KINDS.find((entry) => entry.holds === 'nothing'), true, 0),
    text(false),
    fc.jsonValue({ maxDepth: 1 }),
    ...(depth > 0
      ? [...BLOCK_KINDS.filter((entry) => entry.holds === 'inlines').map((entry) => node(entry, false, depth - 1)), node(INLINE_KINDS[0], true, depth - 1), fragment(depth - 1)]
      : []),
  ];

  return fc
    .record({ data, nodes: blocks(undefined, 3), extra: extraField, reversed })
    .map(({ extra, reversed, ...fields }) => {
      const document = shaped({ object: 'document', ...fields, ...extra }, reversed) as unknown as JSONDocument;
      // Quire's normal form: neighbouring texts and equal-marked leaves joined, empty leaves dropped.
      if (tame) document.nodes = normalise(document.nodes);
      return document;
    });
}
