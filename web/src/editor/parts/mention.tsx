// Mentions: `@` and a few letters list the organization's members and the change
// request's pages; the one chosen becomes GitBook's `mention` inline, whose `data.ref`
// is a content reference (`{kind: 'user', user}` for a person, `{kind: 'page', page}`
// for a page). The page shows the person's name or the page's title. The list that
// follows what is typed after a trigger character is shared with the emoji part.
import type { Editor } from '@tiptap/core';
import { PluginKey } from '@tiptap/pm/state';
import { NodeViewWrapper, ReactNodeViewRenderer, type ReactNodeViewProps } from '@tiptap/react';
import Suggestion from '@tiptap/suggestion';
import { useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { CaretListbox } from '../caretListbox.tsx';
import type { ContentRef } from '../../../../src/content/gitbook/model.ts';
import type { EditorContext, EditorPart, PartProps } from '../part.ts';
import { contextOf } from '../part.ts';
import { linkablePages, pageGlyph, useChangeRequestContent, useMembers, useOrganizationId } from '../references.ts';

// —— A list that follows what is typed after a trigger character ——

/** One choice of a suggestion list. */
export interface Suggested {
  key: string;
  /** What the list shows. */
  label: ReactNode;
  detail?: string;
  insert: (editor: Editor, range: { from: number; to: number }) => void;
}

interface SuggestionState {
  open: boolean;
  query: string;
  from: number;
  to: number;
  active: number;
  /** The choices now listed, for the keys to act on (the overlay computes them from the query). */
  items: Suggested[];
}

const CLOSED: SuggestionState = { open: false, query: '', from: 0, to: 0, active: 0, items: [] };

/** What one editor's list shows for one trigger, for its overlay to draw. */
export class SuggestionStore {
  state: SuggestionState = CLOSED;
  private listeners = new Set<() => void>();
  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };
  set(next: Partial<SuggestionState>) {
    this.state = { ...this.state, ...next };
    for (const listener of this.listeners) listener();
  }
}

/** A store per editor for one trigger character. */
export function suggestionStores(): (editor: Editor) => SuggestionStore {
  const stores = new WeakMap<Editor, SuggestionStore>();
  return (editor) => {
    let store = stores.get(editor);
    if (!store) stores.set(editor, (store = new SuggestionStore()));
    return store;
  };
}

/** The suggestion plugin for `char`: reports the typed query to the store, and gives it the arrow keys, Enter and Escape while open. */
export function suggestionPlugin(editor: Editor, store: SuggestionStore, char: string, name: string) {
  const show = ({ query, range }: { query: string; range: { from: number; to: number } }) => {
    const same = query === store.state.query && store.state.open;
    // A new query's choices are the overlay's to list again: until it does, Enter is the page's own.
    store.set({ open: true, query, from: range.from, to: range.to, active: same ? store.state.active : 0, items: same ? store.state.items : [] });
  };
  return Suggestion({
    editor,
    pluginKey: new PluginKey(name),
    char,
    // Not in code, where `@` and `:` are the code's own.
    allow: ({ state, range }) => !state.doc.resolve(range.from).parent.type.spec.code,
    render: () => ({
      onStart: show,
      onUpdate: show,
      onExit: () => store.set(CLOSED),
      onKeyDown: ({ event }) => {
        const { items, active, open } = store.state;
        if (!open || !items.length) return false;
        if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
          store.set({ active: (active + (event.key === 'ArrowDown' ? 1 : -1) + items.length) % items.length });
          return true;
        }
        if (event.key === 'Enter' || event.key === 'Tab') {
          items[active].insert(editor, { from: store.state.from, to: store.state.to });
          return true;
        }
        if (event.key === 'Escape') {
          store.set(CLOSED);
          return true;
        }
        return false;
      },
    }),
  });
}

/** The list under the typed trigger, for the suggestion plugin's keys to move in and choose from. */
export function SuggestionList({ editor, store, items, title, empty }: { editor: Editor; store: SuggestionStore; items: Suggested[]; title: string; empty: string }) {
  const state = useSyncExternalStore(store.subscribe, () => store.state);
  useEffect(() => {
    if (state.open && store.state.items !== items) store.set({ items, active: Math.min(state.active, Math.max(items.length - 1, 0)) });
  });
  const choices = items.map((item) => ({ key: item.key, label: item.label, detail: item.detail, choose: () => item.insert(editor, { from: state.from, to: state.to }) }));
  return (
    <CaretListbox
      editor={editor}
      open={state.open}
      from={state.from}
      title={title}
      groups={[{ choices }]}
      active={state.active}
      onHover={(active) => store.set({ active })}
      empty={empty}
      width="18rem"
      maxHeight="min(18rem, 40vh)"
    />
  );
}

// —— Mentions ——

const mentionStore = suggestionStores();

/** A mention where the `@query` was, and a space after it to write on. */
function insertMention(editor: Editor, range: { from: number; to: number }, ref: ContentRef) {
  editor
    .chain()
    .focus()
    .insertContentAt(range, [{ type: 'mention', attrs: { data: { ref } } }, { type: 'text', text: ' ' }])
    .run();
}

function MentionMenu({ editor, context }: PartProps) {
  const store = mentionStore(editor);
  const { query, open } = useSyncExternalStore(store.subscribe, () => store.state);
  const members = useMembers(useOrganizationId(context));
  const { index } = useChangeRequestContent(context);
  const items = useMemo((): Suggested[] => {
    if (!open) return [];
    const words = query.toLowerCase();
    return [
        ...(members.data?.items ?? [])
          .filter((member) => !member.disabled && `${member.user.displayName} ${member.user.email ?? ''}`.toLowerCase().includes(words))
          .slice(0, 8)
          .map((member): Suggested => ({
            key: `user-${member.id}`,
            label: member.user.displayName,
            detail: member.user.email ?? 'Member',
            insert: (target, range) => insertMention(target, range, { kind: 'user', user: member.id }),
          })),
        ...(index ? linkablePages(index) : [])
          .filter((entry) => entry.page.title.toLowerCase().includes(words))
          .slice(0, 8)
          .map((entry): Suggested => ({
            key: `page-${entry.page.id}`,
            label: `${pageGlyph(entry.page.emoji)} ${entry.page.title}`.trim(),
            detail: 'Page',
            insert: (target, range) => insertMention(target, range, { kind: 'page', page: entry.page.id }),
          })),
    ];
  }, [open, query, members.data, index]);
  return <SuggestionList editor={editor} store={store} items={items} title={`Mention someone or a page${query ? `: “${query}”` : ''}`} empty={members.isPending ? 'Loading the members…' : `No member or page matches “${query}”`} />;
}

function MentionView({ node, editor }: ReactNodeViewProps) {
  const context: EditorContext = contextOf(editor);
  const ref = node.attrs.data?.ref as ContentRef | undefined;
  const members = useMembers(useOrganizationId(context));
  const { index } = useChangeRequestContent(context);
  let words: string;
  if (ref?.kind === 'user') {
    const member = members.data?.items.find((candidate) => candidate.id === ref.user);
    words = `@${member?.user.displayName ?? (members.isPending ? '…' : 'someone no longer a member')}`;
  } else if (ref?.kind === 'page' || (ref?.kind === 'anchor' && ref.page)) {
    const entry = index?.byId.get(ref.page!);
    words = entry ? `${pageGlyph(entry.page.emoji)} ${entry.page.title}`.trim() : index ? 'A missing page' : '…';
  } else {
    words = ref?.kind === 'url' ? ref.url : '@';
  }
  return (
    <NodeViewWrapper as="span" className="quire-mention" data-kind={ref?.kind}>
      {words}
    </NodeViewWrapper>
  );
}

export const part: EditorPart = {
  order: 60,
  views: { mention: ReactNodeViewRenderer(MentionView, { as: 'span', className: 'quire-mention-view' }) },
  plugins: (editor) => [suggestionPlugin(editor, mentionStore(editor), '@', 'mentionSuggestion')],
  overlay: MentionMenu,
  styles: `
.quire-editor .quire-mention { padding: 0 0.25em; border-radius: var(--mantine-radius-sm); background: var(--mantine-primary-color-light); color: var(--mantine-color-text); font-weight: 600; white-space: nowrap; }
`,
};
