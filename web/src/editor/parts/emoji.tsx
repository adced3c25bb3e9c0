// Emoji: `:` and a few letters of a name (`:smi`) list the emoji of that name (gemoji,
// GitHub's list, which GitBook's markdown names use); the one chosen becomes GitBook's
// `emoji` inline, its `data.code` the code points in hex as Quire's markdown import
// writes them (codeOf). The page shows the character.
import type { Editor, NodeViewRenderer } from '@tiptap/core';
import { gemoji, type Gemoji } from 'gemoji';
import { useMemo, useSyncExternalStore } from 'react';
import { codeOf, emojiName, glyphOf } from '../../../../src/content/gitbook/emoji.ts';
import type { EditorPart, PartProps } from '../part.ts';
import { SuggestionList, suggestionPlugin, suggestionStores, type Suggested } from './mention.tsx';

const emojiStore = suggestionStores();

/** The emoji whose names start with the query first, then those with a name or tag holding it. */
export function emojiMatching(query: string, limit = 10): Gemoji[] {
  const words = query.toLowerCase();
  const starts = gemoji.filter((entry) => entry.names.some((name) => name.startsWith(words)));
  const holds = gemoji.filter((entry) => !starts.includes(entry) && [...entry.names, ...entry.tags].some((name) => name.includes(words)));
  return [...starts, ...holds].slice(0, limit);
}

function insertEmoji(editor: Editor, range: { from: number; to: number }, glyph: string) {
  editor
    .chain()
    .focus()
    .insertContentAt(range, [{ type: 'emoji', attrs: { data: { code: codeOf(glyph) } } }])
    .run();
}

function EmojiMenu({ editor }: PartProps) {
  const store = emojiStore(editor);
  const { query, open } = useSyncExternalStore(store.subscribe, () => store.state);
  // A lone colon (a time, a list's label) lists nothing until a letter follows.
  const shown = open && query.length > 0;
  const items = useMemo(
    (): Suggested[] =>
      shown
        ? emojiMatching(query).map((entry) => ({
            key: entry.names[0],
            label: (
              <>
                <span aria-hidden="true">{entry.emoji}</span> :{entry.names[0]}:
              </>
            ),
            insert: (target, range) => insertEmoji(target, range, entry.emoji),
          }))
        : [],
    [shown, query],
  );
  if (!shown) return null;
  return <SuggestionList editor={editor} store={store} items={items} title={`Emoji: “${query}”`} empty={`No emoji is named “${query}”`} />;
}

/** The character, named for screen readers by its name. */
const emojiView: NodeViewRenderer = ({ node }) => {
  const dom = document.createElement('span');
  const code = String(node.attrs.data?.code ?? '');
  dom.className = 'quire-emoji';
  dom.dataset.type = 'emoji';
  dom.textContent = glyphOf(code);
  dom.setAttribute('role', 'img');
  dom.setAttribute('aria-label', emojiName(code)?.replace(/_/g, ' ') ?? 'emoji');
  return { dom };
};

export const part: EditorPart = {
  order: 61,
  views: { emoji: emojiView },
  plugins: (editor) => [suggestionPlugin(editor, emojiStore(editor), ':', 'emojiSuggestion')],
  overlay: EmojiMenu,
};
