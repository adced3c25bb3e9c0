// Every part in parts/ (part.ts), gathered into the editor's extensions: the document
// model's nodes with the parts' views, and one extension carrying their rules, keys and
// plugins. Vite gathers the files at build time, so a part is added by adding its file.
import { Extension, type AnyExtension, type KeyboardShortcutCommand, type NodeViewRenderer } from '@tiptap/core';
import { editorExtensions } from '../../../src/content/editor/schema.ts';
import type { EditorContext, EditorPart, SlashItem } from './part.ts';
import { wakingViews, wakingWhenNear } from './wakingViews.ts';

const modules = import.meta.glob<EditorPart>('./parts/*.{ts,tsx}', { eager: true, import: 'part' });

export const parts: EditorPart[] = Object.entries(modules)
  .sort(([first], [second]) => first.localeCompare(second))
  .map(([, part]) => part)
  .filter(Boolean)
  .sort((first, second) => (first.order ?? 100) - (second.order ?? 100));

const views = new Map<string, NodeViewRenderer>(parts.flatMap((part) => Object.entries(part.views ?? {}).map(([name, view]) => [name, wakingWhenNear(view)] as const)));

export const slashItems: SlashItem[] = parts.flatMap((part) => part.slash ?? []);

export const partStyles: string = parts.map((part) => part.styles ?? '').join('\n');

/** The extensions of one editor: the model's nodes drawn by the parts, and the parts' behaviour, knowing where it writes. */
export function extensionsFor(context: EditorContext): AnyExtension[] {
  const model = editorExtensions.map((extension) => {
    const view = views.get(extension.name);
    return view ? (extension as any).extend({ addNodeView: () => view }) : extension;
  });
  const behaviour = Extension.create({
    name: 'quire',
    addStorage: () => ({ context }),
    addInputRules() {
      return parts.flatMap((part) => part.inputRules?.(this.editor) ?? []);
    },
    addKeyboardShortcuts() {
      const byKey = new Map<string, KeyboardShortcutCommand[]>();
      for (const part of parts) for (const [key, command] of Object.entries(part.keys?.(this.editor) ?? {})) byKey.set(key, [...(byKey.get(key) ?? []), command]);
      // Several parts may bind one key (Enter in a list, a code block, a caption): each is asked, in the parts' order, until one acts.
      return Object.fromEntries([...byKey].map(([key, commands]): [string, KeyboardShortcutCommand] => [key, (props) => commands.some((command) => command(props))]));
    },
    addProseMirrorPlugins() {
      return [wakingViews, ...parts.flatMap((part) => part.plugins?.(this.editor, context) ?? [])];
    },
  });
  return [...model, behaviour];
}
