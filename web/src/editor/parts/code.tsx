// GitBook's code block: `code-line`s under a bar that sets what `data` holds (a title,
// the language as `syntax`, `lineNumbers`, and `overflow: 'wrap'`). Enter makes a new
// line with the last one's indentation, Tab indents by two spaces, Mod-Enter (or
// ArrowDown on the last line of a block with nothing after it) leaves the block; the
// paste part makes pasted lines code lines. Code in a language lowlight knows is
// highlighted as the reader highlights it, lowlight loading (a chunk of its own) when a
// page first has such a block. The ``` shortcut that makes one is writing.ts's.
import { Checkbox, NativeSelect } from '@mantine/core';
import type { Editor } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { keymap } from '@tiptap/pm/keymap';
import { Plugin, PluginKey, TextSelection, type EditorState, type Transaction } from '@tiptap/pm/state';
import { Decoration, DecorationSet, type EditorView } from '@tiptap/pm/view';
import { useEffect } from 'react';
import type { createLowlight } from 'lowlight';
import { NodeViewContent, NodeViewWrapper, ReactNodeViewRenderer, type NodeViewProps } from '@tiptap/react';
import { fillingKey } from '../filling.ts';
import type { EditorPart } from '../part.ts';
import { EDITOR_CLASS } from '../styles.ts';
import { changedRanges, controlsOwnTheirEvents, insertBlock, useTypedField, withData } from './containers.ts';

/** The languages offered, by the names GitBook (and fenced markdown) give them. */
const LANGUAGES: Array<[syntax: string, label: string]> = [
  ['bash', 'Bash'], ['c', 'C'], ['cpp', 'C++'], ['csharp', 'C#'], ['css', 'CSS'], ['dart', 'Dart'], ['diff', 'Diff'],
  ['dockerfile', 'Dockerfile'], ['go', 'Go'], ['graphql', 'GraphQL'], ['html', 'HTML'], ['http', 'HTTP'], ['java', 'Java'],
  ['javascript', 'JavaScript'], ['json', 'JSON'], ['jsx', 'JSX'], ['kotlin', 'Kotlin'], ['lua', 'Lua'], ['markdown', 'Markdown'],
  ['mermaid', 'Mermaid'], ['php', 'PHP'], ['powershell', 'PowerShell'], ['python', 'Python'], ['r', 'R'], ['ruby', 'Ruby'],
  ['rust', 'Rust'], ['scala', 'Scala'], ['shell', 'Shell'], ['sql', 'SQL'], ['swift', 'Swift'], ['toml', 'TOML'],
  ['tsx', 'TSX'], ['typescript', 'TypeScript'], ['xml', 'XML'], ['yaml', 'YAML'],
];

const INDENT = '  ';

/** `data` with `changes` applied, a field set to undefined taken out, the others kept in their order. */
function CodeView({ node, updateAttributes, editor, getPos }: NodeViewProps) {
  // Once, as the view is made: highlighting changes the view's decorations, which renders it again.
  useEffect(() => askHighlighting(editor.view, getPos), []);
  const data = (node.attrs.data ?? {}) as Record<string, unknown>;
  const change = (changes: Record<string, unknown>) => updateAttributes({ data: withData(data, changes) });
  const syntax = typeof data.syntax === 'string' ? data.syntax : '';
  const titleField = useTypedField(typeof data.title === 'string' ? data.title : '', (title) => change({ title: title || undefined }));
  const options = [{ value: '', label: 'Plain text' }, ...LANGUAGES.map(([value, label]) => ({ value, label }))];
  if (syntax && !LANGUAGES.some(([value]) => value === syntax)) options.push({ value: syntax, label: syntax });
  return (
    <NodeViewWrapper className="quire-code" data-line-numbers={data.lineNumbers === true || undefined} data-wrap={data.overflow === 'wrap' || undefined}>
      <div contentEditable={false} data-controls className="quire-code-bar">
        <input className="quire-code-title" aria-label="Code block title" placeholder="Title (optional)" {...titleField} />
        <NativeSelect size="xs" aria-label="Language" data={options} value={syntax} onChange={(event) => change({ syntax: event.currentTarget.value || undefined })} />
        <Checkbox size="xs" label="Line numbers" checked={data.lineNumbers === true} onChange={(event) => change({ lineNumbers: event.currentTarget.checked || undefined })} />
        <Checkbox size="xs" label="Wrap lines" checked={data.overflow === 'wrap'} onChange={(event) => change({ overflow: event.currentTarget.checked ? 'wrap' : undefined })} />
      </div>
      <pre spellCheck={false}>
        <NodeViewContent<'code'> as="code" className={syntax ? `language-${syntax}` : undefined} />
      </pre>
    </NodeViewWrapper>
  );
}

/** The code line holding the cursor, with its block, when the selection lies in one line. */
function codeLineAt(state: EditorState) {
  const { $from, $to } = state.selection;
  if ($from.parent.type.name !== 'codeLine' || !$from.sameParent($to) || $from.depth < 2) return undefined;
  return { $from, $to, line: $from.parent, block: $from.node(-1), blockDepth: $from.depth - 1 };
}

/** Ends the code block: the cursor goes into a new paragraph after it. */
function leaveBlock(editor: Editor): boolean {
  const at = codeLineAt(editor.state);
  if (!at) return false;
  const after = at.$from.after(at.blockDepth);
  const tr = editor.state.tr.insert(after, editor.schema.nodes.paragraph.create());
  tr.setSelection(TextSelection.create(tr.doc, after + 1));
  editor.view.dispatch(tr.scrollIntoView());
  return true;
}

function codeKeys(editor: Editor): Plugin {
  return keymap({
    Enter: (state, dispatch) => {
      const at = codeLineAt(state);
      if (!at) return false;
      const indentation = /^[ \t]*/.exec(at.line.textContent)![0].slice(0, at.$from.parentOffset);
      const tr = state.tr.deleteSelection();
      tr.split(tr.mapping.map(at.$from.pos), 1, [{ type: state.schema.nodes.codeLine, attrs: { data: {} } }]);
      if (indentation) tr.insertText(indentation);
      dispatch?.(tr.scrollIntoView());
      return true;
    },
    Tab: (state, dispatch) => {
      if (!codeLineAt(state)) return false;
      dispatch?.(state.tr.insertText(INDENT));
      return true;
    },
    'Shift-Tab': (state, dispatch) => {
      const at = codeLineAt(state);
      if (!at) return false;
      const removable = /^ {0,2}/.exec(at.line.textContent)![0].length;
      if (removable > 0) dispatch?.(state.tr.delete(at.$from.start(), at.$from.start() + removable));
      return true;
    },
    'Mod-Enter': () => leaveBlock(editor),
    ArrowDown: (state) => {
      const at = codeLineAt(state);
      if (!at || at.$from.index(at.blockDepth) !== at.block.childCount - 1) return false;
      // Only where nothing follows the block, where ArrowDown would otherwise stay put.
      const parentDepth = at.blockDepth - 1;
      if (at.$from.index(parentDepth) !== at.$from.node(parentDepth).childCount - 1) return false;
      return leaveBlock(editor);
    },
    Backspace: (state, dispatch) => {
      // Backspace in an empty block's only line turns it back into a paragraph.
      const at = codeLineAt(state);
      if (!at || at.block.childCount !== 1 || at.line.content.size > 0 || !state.selection.empty) return false;
      const start = at.$from.before(at.blockDepth);
      const tr = state.tr.replaceWith(start, at.$from.after(at.blockDepth), state.schema.nodes.paragraph.create());
      tr.setSelection(TextSelection.create(tr.doc, start + 1));
      dispatch?.(tr);
      return true;
    },
  });
}

type Lowlight = ReturnType<typeof createLowlight>;
type HastNode = { type: string; value?: string; properties?: { className?: unknown }; children?: HastNode[] };
interface Token { from: number; to: number; className: string }

let lowlight: Lowlight | undefined;
let loading: Promise<unknown> | undefined;
const loadLowlight = () => (loading ??= import('lowlight').then((module) => (lowlight = module.createLowlight(module.common))));

/** A block's language, where lowlight may know it; undefined for plain text. */
function syntaxOf(block: ProseMirrorNode): string | undefined {
  const syntax = (block.attrs.data as Record<string, unknown> | null)?.syntax;
  return typeof syntax === 'string' && syntax && syntax !== 'mermaid' ? syntax.toLowerCase() : undefined;
}

// A block's tokens, by the block (nodes are immutable: one that did not change is not highlighted again).
const tokensOf = new WeakMap<ProseMirrorNode, Token[]>();

/** Lowlight's tokens of a block, at their offsets in it; none where a line holds more than text (an annotation), whose offsets the text would not give. */
function tokens(block: ProseMirrorNode, syntax: string, highlighter: Lowlight): Token[] {
  const cached = tokensOf.get(block);
  if (cached) return cached;
  const found: Token[] = [];
  const lineStarts: number[] = [];
  const lines: string[] = [];
  let onlyText = true;
  block.forEach((line, offset) => {
    line.forEach((child) => void (onlyText &&= child.isText));
    // Past the block's opening and the line's.
    lineStarts.push(offset + 2);
    lines.push(line.textContent);
  });
  if (onlyText && highlighter.registered(syntax)) {
    let line = 0;
    let column = 0;
    const walk = (node: HastNode, classes: string[]) => {
      if (node.type === 'text') {
        for (const [index, piece] of (node.value ?? '').split('\n').entries()) {
          if (index > 0) [line, column] = [line + 1, 0];
          if (piece && classes.length) found.push({ from: lineStarts[line] + column, to: lineStarts[line] + column + piece.length, className: classes.join(' ') });
          column += piece.length;
        }
        return;
      }
      const own = Array.isArray(node.properties?.className) ? (node.properties.className as string[]) : [];
      for (const child of node.children ?? []) walk(child, [...classes, ...own]);
    };
    walk(highlighter.highlight(syntax, lines.join('\n')) as HastNode, []);
  }
  tokensOf.set(block, found);
  return found;
}

interface Highlights {
  decorations: DecorationSet;
  /** Code blocks that asked to be highlighted while lowlight was not loaded yet, by their positions. */
  waiting: number[];
}

const highlightKey = new PluginKey<Highlights>('codeHighlight');
type HighlightMeta = { highlight: number[] } | 'loaded';

/** The decorations of one code block at `position`, or undefined while lowlight is not loaded. */
function blockHighlights(block: ProseMirrorNode, position: number): Decoration[] | undefined {
  const syntax = syntaxOf(block);
  if (!syntax) return [];
  if (!lowlight) return undefined;
  return tokens(block, syntax, lowlight).map((token) => Decoration.inline(position + token.from, position + token.to, { class: token.className }));
}

/** `highlights` with the code blocks at `positions` highlighted again, those lowlight is awaited for waiting. */
function highlighted(doc: ProseMirrorNode, highlights: Highlights, positions: Iterable<number>): Highlights {
  let { decorations } = highlights;
  const waiting = [...highlights.waiting];
  for (const position of new Set(positions)) {
    const block = doc.nodeAt(position);
    if (block?.type.name !== 'codeBlock') continue;
    const again = blockHighlights(block, position);
    if (!again) waiting.push(position);
    else decorations = decorations.remove(decorations.find(position, position + block.nodeSize)).add(doc, again);
  }
  return { decorations, waiting };
}

/** After a change, the code blocks it touched are highlighted again (they are where someone writes); the others' decorations move with the text. */
function changedHighlights(tr: Transaction, old: Highlights): Highlights {
  const moved = { decorations: old.decorations.map(tr.mapping, tr.doc), waiting: old.waiting.map((position) => tr.mapping.map(position, 1)) };
  // A long page's later blocks, added as it opens (filling.ts), are highlighted as their views are made, as its first blocks are.
  if (tr.getMeta(fillingKey)) return moved;
  const touched: number[] = [];
  for (const [from, to] of changedRanges([tr])) {
    tr.doc.nodesBetween(Math.max(0, from - 1), Math.min(tr.doc.content.size, to + 1), (node, position) => {
      if (node.type.name === 'codeBlock') touched.push(position);
      return node.type.name !== 'codeBlock' && !node.isTextblock;
    });
  }
  return highlighted(tr.doc, moved, touched);
}

/**
 * Code is highlighted as its view is made, not the whole page at once: a page of 5,000
 * blocks holds 500 code blocks, most of them asleep out of view (wakingViews.ts), and
 * highlighting them all took 350 ms as it opened. A view asks for its block (one
 * transaction for the views made together); lowlight, a chunk of its own, loads when
 * the first block in a language it may know asks.
 */
const highlighting = new Plugin<Highlights>({
  key: highlightKey,
  state: {
    init: () => ({ decorations: DecorationSet.empty, waiting: [] }),
    apply: (tr, old) => {
      const meta = tr.getMeta(highlightKey) as HighlightMeta | undefined;
      const current = tr.docChanged ? changedHighlights(tr, old) : old;
      if (meta === 'loaded') return highlighted(tr.doc, { ...current, waiting: [] }, current.waiting);
      return meta ? highlighted(tr.doc, current, meta.highlight) : current;
    },
  },
  props: { decorations: (state) => highlightKey.getState(state)?.decorations },
  view: (view) => {
    const loadWhenWanted = () => {
      if (!highlightKey.getState(view.state)?.waiting.length) return;
      void loadLowlight().then(() => !view.isDestroyed && view.dispatch(view.state.tr.setMeta(highlightKey, 'loaded' satisfies HighlightMeta)));
    };
    loadWhenWanted();
    return { update: loadWhenWanted };
  },
});

/** The code blocks whose views were made since the last transaction, by editor: highlighted together in the next. */
const asking = new Map<EditorView, Array<() => number | undefined>>();

/** Asks for a code block's highlighting as its view is made. */
function askHighlighting(view: EditorView, getPos: () => number | undefined) {
  const asked = asking.get(view);
  if (asked) return void asked.push(getPos);
  asking.set(view, [getPos]);
  queueMicrotask(() => {
    const positions = (asking.get(view) ?? []).map((position) => position()).filter((position): position is number => position !== undefined);
    asking.delete(view);
    if (!view.isDestroyed && positions.length > 0) view.dispatch(view.state.tr.setMeta(highlightKey, { highlight: positions } satisfies HighlightMeta).setMeta('addToHistory', false));
  });
}

export const part: EditorPart = {
  views: { codeBlock: ReactNodeViewRenderer(CodeView, { stopEvent: controlsOwnTheirEvents }) },
  slash: [
    {
      title: 'Code block',
      description: 'Code with a title, a language, line numbers and wrapping.',
      keywords: ['code', 'snippet', 'pre', 'source', '```'],
      group: 'Blocks',
      insert: (editor, range) => {
        const { codeBlock, codeLine } = editor.schema.nodes;
        insertBlock(editor, range, codeBlock.create({ data: {} }, codeLine.create({ data: {} })));
      },
    },
  ],
  plugins: (editor) => [codeKeys(editor), highlighting],
  styles: `
.${EDITOR_CLASS} .quire-code { margin: 0.75rem 0; border: 1px solid var(--mantine-color-default-border); border-radius: var(--mantine-radius-sm); background: var(--mantine-color-default-hover); }
.${EDITOR_CLASS} .quire-code-bar { display: flex; flex-wrap: wrap; align-items: center; gap: 0.25rem 0.75rem; padding: 0.25rem 0.5rem; border-bottom: 1px solid var(--mantine-color-default-border); font-size: var(--mantine-font-size-xs); }
.${EDITOR_CLASS} .quire-code-title { flex: 1 1 8rem; min-width: 0; padding: 0.15rem 0.25rem; border: 1px solid transparent; border-radius: var(--mantine-radius-xs); background: transparent; color: inherit; font: inherit; font-weight: 600; }
.${EDITOR_CLASS} .quire-code-title:hover { border-color: var(--mantine-color-default-border); }
.${EDITOR_CLASS} .quire-code-title:focus-visible { outline: 2px solid var(--mantine-primary-color-filled); outline-offset: 0; }
.${EDITOR_CLASS} .quire-code-title::placeholder { color: var(--mantine-color-dimmed); font-weight: 400; }
.${EDITOR_CLASS} .quire-code pre { margin: 0; border-radius: 0; background: none; white-space: pre; overflow-x: auto; counter-reset: code-line; }
.${EDITOR_CLASS} .quire-code[data-wrap] pre { white-space: pre-wrap; overflow-wrap: anywhere; }
.${EDITOR_CLASS} .quire-code pre [data-node-view-content-react] { white-space: inherit !important; }
.${EDITOR_CLASS} .quire-code pre [data-node-view-content] { display: block; white-space: inherit !important; font-family: var(--mantine-font-family-monospace); }
.${EDITOR_CLASS} .quire-code [data-type="codeLine"] { display: block; min-height: 1.6em; }
.${EDITOR_CLASS} .quire-code[data-line-numbers] [data-type="codeLine"]::before { counter-increment: code-line; content: counter(code-line); display: inline-block; width: 2.5em; margin-right: 0.75em; text-align: right; color: var(--mantine-color-dimmed); user-select: none; }
/* Token colours: the reader's. */
.${EDITOR_CLASS} .quire-code .hljs-keyword, .${EDITOR_CLASS} .quire-code .hljs-built_in { color: #a626a4; }
.${EDITOR_CLASS} .quire-code .hljs-string { color: #3a7a39; }
.${EDITOR_CLASS} .quire-code .hljs-number, .${EDITOR_CLASS} .quire-code .hljs-literal { color: #986801; }
.${EDITOR_CLASS} .quire-code .hljs-comment { color: var(--mantine-color-dimmed); font-style: italic; }
.${EDITOR_CLASS} .quire-code .hljs-title { color: #3565d0; }
[data-mantine-color-scheme="dark"] .${EDITOR_CLASS} .quire-code .hljs-keyword, [data-mantine-color-scheme="dark"] .${EDITOR_CLASS} .quire-code .hljs-built_in { color: #d19ae8; }
[data-mantine-color-scheme="dark"] .${EDITOR_CLASS} .quire-code .hljs-string { color: #98c379; }
[data-mantine-color-scheme="dark"] .${EDITOR_CLASS} .quire-code .hljs-number, [data-mantine-color-scheme="dark"] .${EDITOR_CLASS} .quire-code .hljs-literal { color: #e5c07b; }
[data-mantine-color-scheme="dark"] .${EDITOR_CLASS} .quire-code .hljs-title { color: #79b8ff; }
`,
};
