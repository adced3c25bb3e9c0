// The slash menu: `/` at the start of a paragraph or after a space lists every block the
// parts offer (parts.ts's slashItems), grouped, narrowed by what is typed after the
// slash. The suggestion plugin finds the `/query`; the menu is React, fed by a small
// store per editor, and keeps the focus in the page (aria-activedescendant), so typing
// goes on narrowing while ArrowUp/ArrowDown move, Enter inserts and Escape closes.
import type { Editor } from '@tiptap/core';
import { PluginKey } from '@tiptap/pm/state';
import Suggestion from '@tiptap/suggestion';
import { useSyncExternalStore } from 'react';
import { CaretListbox } from '../caretListbox.tsx';
import type { EditorPart, PartProps, SlashItem } from '../part.ts';
import { slashItems } from '../parts.ts';

const GROUPS: SlashItem['group'][] = ['Text', 'Lists', 'Blocks', 'Media', 'Tables', 'References', 'API'];

interface MenuState {
  open: boolean;
  query: string;
  /** The items the query finds, in the menu's order (by group). */
  items: SlashItem[];
  active: number;
  /** Where the typed `/query` starts, to place the menu at it. */
  from: number;
  choose: (item: SlashItem) => void;
}

const CLOSED: MenuState = { open: false, query: '', items: [], active: 0, from: 0, choose: () => {} };

/** The items whose title or keywords hold every word typed after the slash, grouped as the menu shows them. */
function matchingItems(query: string): SlashItem[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const found = slashItems.filter((item) => {
    const text = [item.title, ...(item.keywords ?? [])].join(' ').toLowerCase();
    return words.every((word) => text.includes(word));
  });
  return GROUPS.flatMap((group) => found.filter((item) => item.group === group));
}

/** What one editor's menu shows, for its overlay to subscribe to. */
class MenuStore {
  state: MenuState = CLOSED;
  private listeners = new Set<() => void>();

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };

  set(next: Partial<MenuState>) {
    this.state = { ...this.state, ...next };
    for (const listener of this.listeners) listener();
  }

  move(by: number) {
    const count = this.state.items.length;
    if (count) this.set({ active: (this.state.active + by + count) % count });
  }
}

const stores = new WeakMap<Editor, MenuStore>();

function storeOf(editor: Editor): MenuStore {
  let store = stores.get(editor);
  if (!store) stores.set(editor, (store = new MenuStore()));
  return store;
}

const slashKey = new PluginKey('slashMenu');

function slashPlugin(editor: Editor) {
  const store = storeOf(editor);
  const show = ({ query, range, command }: { query: string; range: { from: number }; command: (item: SlashItem) => void }) => {
    const changed = query !== store.state.query || !store.state.open;
    store.set({ open: true, query, items: matchingItems(query), from: range.from, choose: command, active: changed ? 0 : store.state.active });
  };
  return Suggestion<SlashItem, SlashItem>({
    editor,
    pluginKey: slashKey,
    char: '/',
    // Only in paragraphs: a slash in a heading or a code line is the text's own.
    allow: ({ state, range }) => state.doc.resolve(range.from).parent.type.name === 'paragraph',
    command: ({ editor: target, range, props: item }) => item.insert(target, range),
    render: () => ({
      onStart: show,
      onUpdate: show,
      onExit: () => store.set(CLOSED),
      onKeyDown: ({ event }) => {
        if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
          store.move(event.key === 'ArrowDown' ? 1 : -1);
          return true;
        }
        const chosen = store.state.items[store.state.active];
        // With nothing found, Enter is the page's own again.
        if (event.key === 'Enter' && chosen) {
          store.state.choose(chosen);
          return true;
        }
        return false;
      },
    }),
  });
}

function SlashMenu({ editor }: PartProps) {
  const store = storeOf(editor);
  const menu = useSyncExternalStore(store.subscribe, () => store.state);
  const groups = GROUPS.map((name) => ({
    name,
    choices: menu.items.filter((item) => item.group === name).map((item) => ({ key: `${item.group}-${item.title}`, label: item.title, detail: item.description, choose: () => menu.choose(item) })),
  }));
  return (
    <CaretListbox
      editor={editor}
      open={menu.open}
      from={menu.from}
      title={`Insert a block${menu.query ? `: “${menu.query}”` : ''}`}
      groups={groups}
      active={menu.active}
      onHover={(active) => store.set({ active })}
      empty={`No blocks match “${menu.query}”`}
      width="20rem"
      maxHeight="min(22rem, 45vh)"
    />
  );
}

export const part: EditorPart = {
  // First among the plugins, so that its keys come before other parts' Enter (lists, code…) while the menu is open.
  order: 0,
  plugins: (editor) => [slashPlugin(editor)],
  overlay: SlashMenu,
  styles: `
.quire-editor .suggestion { color: var(--mantine-primary-color-filled); }
`,
};
