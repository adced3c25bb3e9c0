// GitBook's maths: the `math` block and the `inlineMath` inline, each a TeX formula
// (data.formula). Shown typeset as the reader does it (KaTeX's MathML, which the browser
// draws with no stylesheet; KaTeX loaded the first time a formula shows); a click, or
// Enter on the formula, opens its source to edit. `$$` and a space at the start of a
// paragraph makes a block, `$$x^2$$` a formula in the line, as in GitBook's markdown.
import { Button, Group, Text, Textarea, VisuallyHidden } from '@mantine/core';
import { InputRule, type Editor } from '@tiptap/core';
import { keymap } from '@tiptap/pm/keymap';
import { NodeSelection, TextSelection } from '@tiptap/pm/state';
import { NodeViewWrapper, ReactNodeViewRenderer, type ReactNodeViewProps } from '@tiptap/react';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { EditorPart } from '../part.ts';
import { EDITOR_CLASS } from '../styles.ts';

type Katex = typeof import('katex').default;
let katexLoading: Promise<Katex> | undefined;

/** The formula as MathML, as the reader typesets it (src/reader/render.ts); undefined until KaTeX has loaded. */
function useTypeset(formula: string, display: boolean): string | undefined {
  const [katex, setKatex] = useState<Katex>();
  useEffect(() => {
    let current = true;
    katexLoading ??= import('katex').then((module) => module.default);
    void katexLoading.then((loaded) => current && setKatex(() => loaded));
    return () => {
      current = false;
    };
  }, []);
  // KaTeX trusts no command that links or includes, and bounds sizes and expansion: its markup is safe to insert.
  return katex?.renderToString(formula, { output: 'mathml', displayMode: display, throwOnError: false, trust: false, strict: 'ignore', maxSize: 50, maxExpand: 1000 });
}

const formulaOf = (node: ReactNodeViewProps['node']): string => String((node.attrs.data ?? {}).formula ?? '');

/**
 * Puts the cursor after the formula, where the writer goes on: after a block, in the
 * paragraph that follows it, made when there is none.
 */
function continueAfter(editor: Editor, getPos: () => number | undefined, size: number, block: boolean) {
  const pos = getPos();
  if (pos === undefined) return;
  const after = pos + size;
  const tr = editor.state.tr;
  if (block && !tr.doc.resolve(after).nodeAfter?.isTextblock) tr.insert(after, editor.schema.nodes.paragraph.create());
  tr.setSelection(TextSelection.near(tr.doc.resolve(block ? after + 1 : after)));
  editor.view.dispatch(tr);
  editor.view.focus();
}

/**
 * A formula's editing, the block's and the inline's: its TeX opened by a click or Enter,
 * kept when done. `finish(moveOn)`: Done, Esc, Ctrl+Enter and leaving the field each
 * finish, whichever comes first; `moveOn` puts the cursor after the formula, while
 * leaving the field for elsewhere leaves the cursor where it went. In a line, an empty
 * formula is no formula: Git Sync would write `$$$$`, which reads back as text, so it goes.
 */
function useFormulaEditing({ node, editor, getPos, updateAttributes, deleteNode }: ReactNodeViewProps, block: boolean) {
  const formula = formulaOf(node);
  const [editing, setEditing] = useState(formula === '');
  const [source, setSource] = useState(formula);
  const open = useRef(editing);
  const start = () => {
    open.current = true;
    setSource(formula);
    setEditing(true);
  };
  const finish = (moveOn: boolean) => {
    if (!open.current) return;
    open.current = false;
    setEditing(false);
    if (!block && source.trim() === '') {
      deleteNode();
      if (moveOn) editor.view.focus();
      return;
    }
    if (source !== formula) updateAttributes({ data: { ...(node.attrs.data ?? {}), formula: source } });
    if (moveOn) continueAfter(editor, getPos, node.nodeSize, block);
  };
  return { formula, editing, source, setSource, start, finish };
}

function MathBlockView(props: ReactNodeViewProps) {
  const { formula, editing, source, setSource, start, finish } = useFormulaEditing(props, true);
  const typeset = useTypeset(editing ? source : formula, true);
  const keys = (event: KeyboardEvent) => {
    if (event.key === 'Escape' || (event.key === 'Enter' && (event.ctrlKey || event.metaKey))) {
      event.preventDefault();
      finish(true);
    }
  };

  return (
    <NodeViewWrapper className="quire-math" data-selected={props.selected || undefined}>
      <div contentEditable={false}>
        {editing ? (
          <>
            <Textarea
              label="TeX formula"
              description="Ctrl+Enter or Esc when done"
              autosize
              minRows={2}
              autoFocus
              value={source}
              onChange={(event) => setSource(event.currentTarget.value)}
              onKeyDown={keys}
              onBlur={() => finish(false)}
              classNames={{ input: 'quire-math-source' }}
            />
            <div className="quire-math-preview" aria-live="polite">
              {source.trim() !== '' && typeset && <div dangerouslySetInnerHTML={{ __html: typeset }} />}
            </div>
            <Group justify="flex-end">
              <Button size="compact-xs" variant="default" onMouseDown={(event) => event.preventDefault()} onClick={() => finish(true)}>
                Done
              </Button>
            </Group>
          </>
        ) : (
          <button
            type="button"
            className="quire-math-shown"
            onClick={start}
          >
            <VisuallyHidden>Edit the formula </VisuallyHidden>
            {formula.trim() === '' ? (
              <Text span c="dimmed" size="sm">
                Empty formula: click to write it in TeX
              </Text>
            ) : typeset ? (
              <span dangerouslySetInnerHTML={{ __html: typeset }} />
            ) : (
              <code>{formula}</code>
            )}
          </button>
        )}
      </div>
    </NodeViewWrapper>
  );
}

function InlineMathView(props: ReactNodeViewProps) {
  const { formula, editing, source, setSource, start, finish } = useFormulaEditing(props, false);
  const typeset = useTypeset(formula, false);

  return (
    <NodeViewWrapper as="span" className="quire-inline-math">
      {editing ? (
        <input
          className="quire-inline-math-source"
          aria-label="TeX formula"
          placeholder="TeX, e.g. e = mc^2"
          autoFocus
          value={source}
          size={Math.max(8, source.length + 1)}
          onChange={(event) => setSource(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' || event.key === 'Escape') {
              event.preventDefault();
              finish(true);
            }
          }}
          onBlur={() => finish(false)}
        />
      ) : (
        <button
          type="button"
          contentEditable={false}
          className="quire-math-shown"
          onClick={start}
        >
          <VisuallyHidden>Edit the formula </VisuallyHidden>
          {typeset ? <span dangerouslySetInnerHTML={{ __html: typeset }} /> : <code>{formula}</code>}
        </button>
      )}
    </NodeViewWrapper>
  );
}

/** Enter on a selected formula (reached with the arrow keys) opens its TeX, as a click does. */
const openSelectedFormula = () =>
  keymap({
  Enter: (state, _dispatch, view) => {
    const { selection } = state;
    if (!(selection instanceof NodeSelection) || !['math', 'inlineMath'].includes(selection.node.type.name)) return false;
    const shown = (view?.nodeDOM(selection.from) as HTMLElement | null)?.querySelector<HTMLButtonElement>('.quire-math-shown');
    shown?.click();
    return shown !== undefined && shown !== null;
  },
});

const emptyMath = (name: 'math' | 'inlineMath') => ({ type: name, attrs: { data: { formula: '' }, isVoid: true } });

export const part: EditorPart = {
  views: { math: ReactNodeViewRenderer(MathBlockView), inlineMath: ReactNodeViewRenderer(InlineMathView) },
  slash: [
    {
      title: 'Math block',
      description: 'A formula on its own lines, written in TeX',
      keywords: ['maths', 'equation', 'latex', 'tex', 'formula', 'katex'],
      group: 'Blocks',
      insert: (editor, range) => void editor.chain().focus().deleteRange(range).insertContent(emptyMath('math')).run(),
    },
    {
      title: 'Inline math',
      description: 'A formula within the line, written in TeX',
      keywords: ['maths', 'equation', 'latex', 'tex', 'formula', 'katex'],
      group: 'Text',
      insert: (editor, range) => void editor.chain().focus().deleteRange(range).insertContent(emptyMath('inlineMath')).run(),
    },
  ],
  plugins: () => [openSelectedFormula()],
  inputRules: (editor) => [
    // `$$` and a space as a paragraph's whole text: a math block in its place, opened to write.
    new InputRule({
      find: /^\$\$\s$/,
      handler: ({ state, range }) => {
        const $from = state.doc.resolve(range.from);
        if ($from.parent.type.name !== 'paragraph' || $from.parent.content.size !== range.to - range.from) return null;
        state.tr.replaceWith($from.before(), $from.after(), editor.schema.nodes.math.create({ data: { formula: '' }, isVoid: true }));
      },
    }),
    new InputRule({
      find: /\$\$([^$\n]+)\$\$$/,
      handler: ({ state, range, match }) => {
        state.tr.replaceWith(range.from, range.to, editor.schema.nodes.inlineMath.create({ data: { formula: match[1] }, isVoid: true }));
      },
    }),
  ],
  styles: `
.${EDITOR_CLASS} .quire-math { margin: 0.5rem 0; }
.${EDITOR_CLASS} .quire-math-shown { all: unset; cursor: pointer; border-radius: var(--mantine-radius-sm); }
.${EDITOR_CLASS} .quire-math .quire-math-shown { display: block; box-sizing: border-box; width: 100%; padding: 0.5rem; text-align: center; }
.${EDITOR_CLASS} .quire-math-shown:hover, .${EDITOR_CLASS} .quire-math[data-selected] .quire-math-shown { background: var(--mantine-color-default-hover); }
.${EDITOR_CLASS} .quire-math-shown:focus-visible { outline: 2px solid var(--mantine-primary-color-filled); outline-offset: 1px; }
.${EDITOR_CLASS} .quire-math-source, .${EDITOR_CLASS} .quire-inline-math-source { font-family: var(--mantine-font-family-monospace); }
.${EDITOR_CLASS} .quire-math-preview { padding: 0.5rem; text-align: center; min-height: 1rem; }
.${EDITOR_CLASS} .quire-inline-math-source { font-size: 0.9em; padding: 0 0.25rem; border: 1px solid var(--mantine-color-default-border); border-radius: var(--mantine-radius-sm); background: var(--mantine-color-body); color: var(--mantine-color-text); }
`,
};
