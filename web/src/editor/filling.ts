// A long page opens a screen first: the editor is given the page's first blocks, which
// the browser paints and the writer can type in, and the rest follows in slices, a task
// each, after that first paint. Drawing all 5,000 blocks of a long page before the first
// key took half a second of ProseMirror's drawing and as much of the browser's style and
// layout (bench/editor-browser.ts); a slice is a few tens of milliseconds, one a frame,
// so a key typed meanwhile waits no longer than that.
//
// The slices are the page as it was, not an edit: they are added outside the undo history,
// and marked (fillingKey) so that the save does not take them for one, while what counts
// or checks the page hears of them as of any change. What is saved is always the whole
// page: `whole` puts the blocks not drawn yet after what the editor holds.
import type { Editor } from '@tiptap/core';
import { Fragment, type Node as ProseMirrorNode } from '@tiptap/pm/model';
import { EditorState, PluginKey } from '@tiptap/pm/state';

/** Top-level blocks drawn before the page first shows: more than a tall screen holds. */
const FIRST_DRAWN = 60;
/** Top-level blocks added by each later task. */
const SLICE = 250;

/** Marks the transactions that add the page's later blocks. */
export const fillingKey = new PluginKey('quireFilling');

export interface OpenedPage {
  /** The page as a save must write it: `doc`, the editor's document, with the blocks not drawn yet after it. */
  whole(doc: ProseMirrorNode): ProseMirrorNode;
  /** The editor is going: no more slices. */
  stop(): void;
}

/** Gives `editor` the document `page`, its first screen now and the rest in the tasks after the browser paints it. */
export function openPage(editor: Editor, page: ProseMirrorNode): OpenedPage {
  const blocks: ProseMirrorNode[] = [];
  page.forEach((block) => blocks.push(block));
  let drawn = Math.min(blocks.length, FIRST_DRAWN);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let frame: number | undefined;
  const first = drawn === blocks.length ? page : page.copy(Fragment.from(blocks.slice(0, drawn)));
  editor.view.updateState(EditorState.create({ doc: first, plugins: editor.state.plugins }));
  // TipTap hears of a state only by a transaction: the toolbars read the page from this one.
  editor.view.dispatch(editor.state.tr);

  const addSlice = () => {
    if (editor.isDestroyed) return;
    const slice = Fragment.from(blocks.slice(drawn, drawn + SLICE));
    const { tr } = editor.state;
    tr.insert(tr.doc.content.size, slice).setMeta(fillingKey, true).setMeta('addToHistory', false);
    editor.view.dispatch(tr);
    drawn += slice.childCount;
    nextSlice();
  };
  // A slice a frame, each after the frame is painted: a key typed meanwhile shows at the next.
  const nextSlice = () => {
    if (drawn < blocks.length) frame = requestAnimationFrame(() => (timer = setTimeout(addSlice, 0)));
  };
  nextSlice();

  return {
    whole: (doc) => (drawn === blocks.length ? doc : doc.copy(doc.content.append(Fragment.from(blocks.slice(drawn))))),
    stop: () => {
      if (frame !== undefined) cancelAnimationFrame(frame);
      clearTimeout(timer);
    },
  };
}
