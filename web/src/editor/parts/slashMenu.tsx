// The slash menu: `/` at the start of a paragraph or after a space lists every block the
// parts offer (parts.ts's slashItems), grouped, narrowed by what is typed after the
// slash. The suggestion plugin finds the `/query`; the menu is React, fed by a small
// store per editor, and keeps the focus in the page (aria-activedescendant), so typing
// goes on narrowing while ArrowUp/ArrowDown move, Enter inserts and Escape closes.
import { Paper, ScrollArea, Text } from '@mantine/core';
import type { Editor } from '@tiptap/core';
import { PluginKey } from '@tiptap/pm/state';
import Suggestion from '@tiptap/suggestion';
import { useEffect, useId, useRef, useState, useSyncExternalStore } from 'react';
import { besideCaret, usePlaced } from '../floating.ts';
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

/** Where the menu goes: under the slash, or above it when the window has no room below; kept inside the window's width. */
function SlashMenu({ editor }: PartProps) {
  const store = storeOf(editor);
  const menu = useSyncExternalStore(store.subscribe, () => store.state);
  const id = useId();
  const optionId = (index: number) => `${id}-option-${index}`;
  const paper = useRef<HTMLDivElement>(null);
  const [position, setPosition] = useState({ top: 0, left: 0 });

  // The page keeps the focus; it names the option that Enter would insert.
  const listed = menu.open && menu.items.length > 0;
  useEffect(() => {
    if (!listed) return;
    const page = editor.view.dom;
    page.setAttribute('aria-activedescendant', `${id}-option-${menu.active}`);
    page.setAttribute('aria-controls', `${id}-list`);
    return () => {
      page.removeAttribute('aria-activedescendant');
      page.removeAttribute('aria-controls');
    };
  }, [editor, id, listed, menu.active]);

  usePlaced(() => setPosition(besideCaret(editor.view.coordsAtPos(menu.from), paper.current)), menu.open, [editor, menu.from, menu.items.length]);

  useEffect(() => {
    if (listed) document.getElementById(`${id}-option-${menu.active}`)?.scrollIntoView({ block: 'nearest' });
  }, [id, listed, menu.active]);

  if (!menu.open) return null;
  let index = -1;
  return (
    // Not in a portal: inside the page's landmark, placed by the window (position: fixed).
    <Paper
      ref={paper}
      shadow="md"
      withBorder
      radius="md"
      p={4}
      style={{ position: 'fixed', top: position.top, left: position.left, zIndex: 300, width: 'min(20rem, calc(100vw - 1rem))' }}
      // A click in the menu must not take the focus (and the typed slash) from the page.
      onMouseDown={(event) => event.preventDefault()}
    >
      <Text id={`${id}-label`} size="xs" fw={600} c="dimmed" px="xs" pt={4}>
        Insert a block{menu.query ? `: “${menu.query}”` : ''}
      </Text>
      <ScrollArea.Autosize mah="min(22rem, 45vh)" type="auto">
        {menu.items.length > 0 && (
          <div role="listbox" id={`${id}-list`} aria-labelledby={`${id}-label`}>
            {GROUPS.map((group) => {
              const items = menu.items.filter((item) => item.group === group);
              if (!items.length) return null;
              return (
                <div key={group} role="group" aria-labelledby={`${id}-${group}`}>
                  <Text id={`${id}-${group}`} size="xs" c="dimmed" px="xs" pt={6} pb={2} tt="uppercase" fw={600}>
                    {group}
                  </Text>
                  {items.map((item) => {
                    index += 1;
                    const at = index;
                    const active = at === menu.active;
                    return (
                      <div
                        key={`${item.group}-${item.title}`}
                        id={optionId(at)}
                        role="option"
                        // Focusable by script only (the page keeps the focus), which lets the scrolled list count as reachable.
                        tabIndex={-1}
                        aria-selected={active}
                        className="quire-slash-option"
                        data-active={active || undefined}
                        onMouseEnter={() => store.set({ active: at })}
                        onClick={() => menu.choose(item)}
                      >
                        <Text size="sm" fw={500} component="span" display="block">
                          {item.title}
                        </Text>
                        <Text size="xs" c="dimmed" component="span" display="block">
                          {item.description}
                        </Text>
                      </div>
                    );
                  })}
                </div>
              );
            })}
          </div>
        )}
        {!menu.items.length && (
          <Text size="sm" c="dimmed" px="xs" py="xs" role="status">
            No blocks match “{menu.query}”
          </Text>
        )}
      </ScrollArea.Autosize>
    </Paper>
  );
}

export const part: EditorPart = {
  // First among the plugins, so that its keys come before other parts' Enter (lists, code…) while the menu is open.
  order: 0,
  plugins: (editor) => [slashPlugin(editor)],
  overlay: SlashMenu,
  styles: `
.quire-slash-option { padding: 0.3rem 0.6rem; border-radius: var(--mantine-radius-sm); cursor: pointer; }
.quire-slash-option[data-active] { background: var(--mantine-primary-color-light); }
.quire-editor .suggestion { color: var(--mantine-primary-color-filled); }
`,
};
