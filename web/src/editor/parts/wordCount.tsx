// The page's length in the toolbar: "123 words", its characters on hover. Counted when
// typing pauses, not on each keystroke, and only the blocks that changed, so a
// 5,000-block page types as fast with it.
import { Text } from '@mantine/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { useEffect, useState } from 'react';
import type { EditorPart, PartProps } from '../part.ts';

/** How long typing pauses before the page is counted again. */
const PAUSE_MS = 500;

const WORD = /[\p{L}\p{N}]+(?:['’\-.][\p{L}\p{N}]+)*/gu;

// A text block's count, kept while the block is the same node: ProseMirror keeps every
// block a change did not touch, so after a keystroke only the block typed in is counted.
const counted = new WeakMap<ProseMirrorNode, { words: number; characters: number }>();

function countBlock(block: ProseMirrorNode): { words: number; characters: number } {
  let count = counted.get(block);
  if (!count) {
    const text = block.textContent;
    count = { words: text.match(WORD)?.length ?? 0, characters: text.length };
    counted.set(block, count);
  }
  return count;
}

/** Words (runs of letters or digits, with the apostrophes, dashes and dots inside them) and characters (spaces between words included, none between blocks). */
export function countWords(doc: ProseMirrorNode): { words: number; characters: number } {
  let words = 0;
  let characters = 0;
  doc.descendants((node) => {
    if (!node.isTextblock) return true;
    const count = countBlock(node);
    words += count.words;
    characters += count.characters;
    return false;
  });
  return { words, characters };
}

const number = new Intl.NumberFormat();
const plural = (count: number, one: string, many: string) => `${number.format(count)} ${count === 1 ? one : many}`;

function WordCount({ editor }: PartProps) {
  // Not counted while the page opens: the first count, of every block, waits for a pause too.
  const [count, setCount] = useState<{ words: number; characters: number }>();
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const changed = () => {
      clearTimeout(timer);
      timer = setTimeout(() => setCount(countWords(editor.state.doc)), PAUSE_MS);
    };
    changed();
    editor.on('update', changed);
    return () => {
      clearTimeout(timer);
      editor.off('update', changed);
    };
  }, [editor]);
  if (!count) return null;
  const characters = plural(count.characters, 'character', 'characters');
  return (
    <Text size="sm" c="dimmed" title={characters} data-testid="word-count">
      {plural(count.words, 'word', 'words')}
    </Text>
  );
}

export const part: EditorPart = {
  order: 1000,
  toolbar: WordCount,
};
