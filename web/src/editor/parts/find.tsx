// Find in page: Mod-F in the editor (or Find in the toolbar) opens a bar over the page;
// what is typed there is highlighted wherever it stands in the page's text, case aside,
// with "2 of 5" and Enter / Shift-Enter to go to the next or previous one. Replace and
// Replace all change the words where they are, each one undo step. The matches are a
// plugin's decorations, found again only while the bar is open.
import { ActionIcon, Button, Group, Paper, Text, TextInput } from '@mantine/core';
import type { Editor } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { closeHistory } from '@tiptap/pm/history';
import { Plugin, PluginKey, type EditorState, type Transaction } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { EditorPart, PartProps } from '../part.ts';

interface Match {
  from: number;
  to: number;
}

interface FindState {
  open: boolean;
  query: string;
  matches: Match[];
  /** The match gone to, as an index into `matches`. */
  current: number;
  decorations: DecorationSet;
}

type FindChange = { open?: boolean; query?: string; current?: number };

const findKey = new PluginKey<FindState>('quireFind');
const CLOSED: FindState = { open: false, query: '', matches: [], current: 0, decorations: DecorationSet.empty };

/** A text block's words, and where in the page each run of them starts (an inline that is no text stands for one character that matches nothing). */
function textOfBlock(block: ProseMirrorNode, blockPos: number): { text: string; runs: Array<{ at: number; pos: number }> } {
  let text = '';
  const runs: Array<{ at: number; pos: number }> = [];
  block.descendants((child, offset) => {
    // A link or an annotation holds words of its own: they are looked into.
    if (!child.isText && !child.isLeaf) return true;
    runs.push({ at: text.length, pos: blockPos + 1 + offset });
    text += child.isText ? child.text! : '\ufffc';
    return false;
  });
  return { text, runs };
}

/** The page position of a character of a block's words. */
function positionOf(runs: Array<{ at: number; pos: number }>, index: number): number {
  let low = 0;
  let high = runs.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (runs[middle].at <= index) low = middle;
    else high = middle - 1;
  }
  return runs[low].pos + index - runs[low].at;
}

/** Where the query stands in each text block, case aside. */
export function findMatches(doc: ProseMirrorNode, query: string): Match[] {
  const needle = query.toLowerCase();
  if (!needle) return [];
  const matches: Match[] = [];
  doc.descendants((node, pos) => {
    if (!node.isTextblock) return true;
    const { text, runs } = textOfBlock(node, pos);
    const lower = text.toLowerCase();
    // Lower-casing can change a text's length (İ): then it is searched as written.
    const [source, wanted] = lower.length === text.length ? [lower, needle] : [text, query];
    for (let at = source.indexOf(wanted); at !== -1; at = source.indexOf(wanted, at + wanted.length)) {
      matches.push({ from: positionOf(runs, at), to: positionOf(runs, at + wanted.length - 1) + 1 });
    }
    return false;
  });
  return matches;
}

function decorate(doc: ProseMirrorNode, matches: Match[], current: number): DecorationSet {
  return DecorationSet.create(
    doc,
    matches.map((match, index) => Decoration.inline(match.from, match.to, { class: index === current ? 'quire-find-match quire-find-current' : 'quire-find-match' })),
  );
}

function nextState(value: FindState, tr: Transaction, state: EditorState): FindState {
  const change = tr.getMeta(findKey) as FindChange | undefined;
  if (!change && !tr.docChanged) return value;
  const open = change?.open ?? value.open;
  if (!open) return CLOSED;
  const query = change?.query ?? value.query;
  const matches = change?.query !== undefined || tr.docChanged ? findMatches(state.doc, query) : value.matches;
  const wanted = change?.current ?? (change?.query !== undefined ? firstAfter(matches, state.selection.from) : value.current);
  const current = matches.length === 0 ? 0 : ((wanted % matches.length) + matches.length) % matches.length;
  return { open, query, matches, current, decorations: decorate(state.doc, matches, current) };
}

/** The first match at or after a position, so that finding starts where the writer is. */
function firstAfter(matches: Match[], position: number): number {
  const index = matches.findIndex((match) => match.from >= position);
  return index === -1 ? 0 : index;
}

const findState = (editor: Editor): FindState => findKey.getState(editor.state) ?? CLOSED;
const changeFind = (editor: Editor, change: FindChange) => editor.view.dispatch(editor.state.tr.setMeta(findKey, change).setMeta('addToHistory', false));

/** Brings the current match into view without moving the selection, so the find box keeps the keyboard. */
function showCurrent(editor: Editor): void {
  const { matches, current } = findState(editor);
  const match = matches[current];
  if (!match) return;
  const { node } = editor.view.domAtPos(match.from);
  const element = node instanceof Element ? node : node.parentElement;
  element?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
}

function replaceCurrent(editor: Editor, replacement: string): void {
  const { matches, current } = findState(editor);
  const match = matches[current];
  if (!match) return;
  editor.view.dispatch(closeHistory(editor.state.tr).insertText(replacement, match.from, match.to).setMeta(findKey, { current }));
}

function replaceAll(editor: Editor, replacement: string): void {
  const { matches } = findState(editor);
  if (matches.length === 0) return;
  const tr = closeHistory(editor.state.tr);
  // From the last, so that each replacement leaves the positions before it as they were.
  for (const match of [...matches].reverse()) tr.insertText(replacement, match.from, match.to);
  editor.view.dispatch(tr);
}

/** The editor's find state, as React reads it: again after each transaction. */
function useFindState(editor: Editor): FindState {
  return useSyncExternalStore(
    (changed) => {
      editor.on('transaction', changed);
      return () => void editor.off('transaction', changed);
    },
    () => findState(editor),
  );
}

function FindBar({ editor }: PartProps) {
  const state = useFindState(editor);
  const [replacement, setReplacement] = useState('');
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (state.open) input.current?.select();
  }, [state.open]);
  useEffect(() => {
    if (state.open) showCurrent(editor);
  }, [editor, state.open, state.current, state.matches]);

  if (!state.open) return null;
  const close = () => {
    const match = state.matches[state.current];
    changeFind(editor, { open: false });
    // Back in the page at what was found, as a browser's find leaves it.
    if (match) editor.chain().focus().setTextSelection(match).run();
    else editor.commands.focus();
  };
  // From the editor's state, not this render's: two quick Enters go two matches on.
  const go = (step: number) => changeFind(editor, { current: findState(editor).current + step });
  const count = state.query === '' ? '' : state.matches.length === 0 ? 'No results' : `${state.current + 1} of ${state.matches.length}`;

  return (
    <Paper className="quire-find-bar" shadow="md" withBorder p="xs" role="search" aria-label="Find in page">
      <Group gap="xs" wrap="nowrap">
        <TextInput
          ref={input}
          size="xs"
          aria-label="Find in page"
          placeholder="Find in page"
          value={state.query}
          onChange={(event) => changeFind(editor, { query: event.currentTarget.value })}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              go(event.shiftKey ? -1 : 1);
            } else if (event.key === 'Escape') {
              event.preventDefault();
              close();
            }
          }}
          style={{ flex: '1 1 auto', minWidth: 0 }}
        />
        <Text size="xs" c="dimmed" aria-live="polite" miw="3.75rem" style={{ whiteSpace: 'nowrap' }} data-testid="find-count">
          {count}
        </Text>
        <ActionIcon variant="default" aria-label="Previous match" title="Previous match (Shift+Enter)" disabled={state.matches.length === 0} onClick={() => go(-1)}>
          <Chevron up />
        </ActionIcon>
        <ActionIcon variant="default" aria-label="Next match" title="Next match (Enter)" disabled={state.matches.length === 0} onClick={() => go(1)}>
          <Chevron />
        </ActionIcon>
        <ActionIcon variant="subtle" color="gray" aria-label="Close find" title="Close (Escape)" onClick={close}>
          <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true">
            <path d="M6 6l12 12M18 6L6 18" />
          </svg>
        </ActionIcon>
      </Group>
      <Group gap="xs" mt="xs" wrap="nowrap">
        <TextInput
          size="xs"
          aria-label="Replace with"
          placeholder="Replace with"
          value={replacement}
          onChange={(event) => setReplacement(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              replaceCurrent(editor, replacement);
            } else if (event.key === 'Escape') {
              event.preventDefault();
              close();
            }
          }}
          style={{ flex: '1 1 auto', minWidth: 0 }}
        />
        <Button size="xs" variant="default" style={{ flexShrink: 0 }} disabled={state.matches.length === 0} onClick={() => replaceCurrent(editor, replacement)}>
          Replace
        </Button>
        <Button size="xs" variant="default" style={{ flexShrink: 0 }} disabled={state.matches.length === 0} onClick={() => replaceAll(editor, replacement)}>
          Replace all
        </Button>
      </Group>
    </Paper>
  );
}

function Chevron({ up = false }: { up?: boolean }) {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true">
      <path d={up ? 'M6 15l6-6 6 6' : 'M6 9l6 6 6-6'} />
    </svg>
  );
}

function FindButton({ editor }: PartProps) {
  return (
    <Button size="compact-sm" variant="subtle" color="gray" title="Find in page (Ctrl+F or ⌘F)" onClick={() => changeFind(editor, { open: true })}>
      Find
    </Button>
  );
}

export const part: EditorPart = {
  order: 900,
  plugins: () => [
    new Plugin<FindState>({
      key: findKey,
      state: { init: () => CLOSED, apply: (tr, value, _old, state) => nextState(value, tr, state) },
      props: { decorations: (state) => findKey.getState(state)?.decorations },
    }),
  ],
  keys: (editor) => ({
    'Mod-f': () => {
      const { from, to } = editor.state.selection;
      // A selection within one line is what to find, as in a browser.
      const selected = from < to ? editor.state.doc.textBetween(from, to, ' ') : '';
      changeFind(editor, selected && !selected.includes('\n') ? { open: true, query: selected } : { open: true });
      return true;
    },
  }),
  toolbar: FindButton,
  overlay: FindBar,
  styles: `
.quire-find-match { background: var(--mantine-color-yellow-light); border-radius: 2px; }
.quire-find-current { background: var(--mantine-color-orange-light); outline: 2px solid var(--mantine-color-orange-filled); }
.quire-find-bar { position: fixed; z-index: 150; top: calc(var(--app-shell-header-height, 0px) + 0.5rem); right: 1rem; width: min(26rem, calc(100vw - 2rem)); }
`,
};
