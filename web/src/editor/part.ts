// What a part of the editor brings: a file in parts/ for each block kind (or a concern
// such as the slash menu, paste or find), exporting `part`. The editor gathers every
// file there (parts.ts), so adding a kind touches no other file. A part draws the
// schema's nodes (src/content/editor names them), offers them in the slash menu, and
// may add rules, keys, plugins, styles and React UI around the page.
import type { Editor, InputRule, KeyboardShortcutCommand, NodeViewRenderer } from '@tiptap/core';
import type { Plugin } from '@tiptap/pm/state';
import type { ComponentType } from 'react';

/** Where the editor is writing: what a part needs to call the API. */
export interface EditorContext {
  spaceId: string;
  changeRequestId: string;
  /** The page written; undefined when it is a reusable content. */
  pageId: string | undefined;
  /** The change request's screen, `/s/{space}/~/changes/{number}`: links in the app lead under it. */
  basePath: string;
  csrfToken: string;
  /** `/v1/spaces/{space}/change-requests/{changeRequest}/content`. */
  contentUrl: string;
}

export interface SlashItem {
  /** What the menu shows, e.g. "Hint". */
  title: string;
  /** One line saying what it makes. */
  description: string;
  /** Other words that find it when typed after the slash. */
  keywords?: string[];
  /** The menu's section. */
  group: 'Text' | 'Lists' | 'Blocks' | 'Media' | 'Tables' | 'References' | 'API';
  /** Replaces the typed `/query` (range) with the new block, and places the cursor in it. */
  insert: (editor: Editor, range: { from: number; to: number }) => void;
}

export interface PartProps {
  editor: Editor;
  context: EditorContext;
}

export interface EditorPart {
  /** Node views, by the schema's node name. */
  views?: Record<string, NodeViewRenderer>;
  slash?: SlashItem[];
  inputRules?: (editor: Editor) => InputRule[];
  /**
   * Keys, asked in the parts' order until one acts. They come before every part's
   * plugins: a key a plugin must see first (a menu's Enter) belongs in its handleKeyDown.
   */
  keys?: (editor: Editor) => Record<string, KeyboardShortcutCommand>;
  plugins?: (editor: Editor, context: EditorContext) => Plugin[];
  /** CSS, added to the page once; the part scopes it (under EDITOR_CLASS for the page's content). */
  styles?: string;
  /** Shown in the bar above the page (formatting, find, word count…). */
  toolbar?: ComponentType<PartProps>;
  /** Shown after the page: menus and popovers that place themselves. */
  overlay?: ComponentType<PartProps>;
  /** Lower comes first in the toolbar and in the slash menu; 100 when absent. */
  order?: number;
}

/** The context an editor was made with (the `quire` extension's storage). */
export function contextOf(editor: Editor): EditorContext {
  return (editor.storage as unknown as { quire: { context: EditorContext } }).quire.context;
}
