// GitBook's tabs: `tabs-item`s, each titled by its `data.title`, one shown at a time. The
// bar above them holds each title as a field to rename it in place (focusing it shows
// that tab), a button to remove the shown tab and one to add a tab; the tab holding the
// cursor is the one shown, so moving through the page never writes in a hidden tab.
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { NodeViewContent, NodeViewWrapper, ReactNodeViewRenderer, type NodeViewProps } from '@tiptap/react';
import { useEffect, useState } from 'react';
import type { EditorPart } from '../part.ts';
import { EDITOR_CLASS } from '../styles.ts';
import { childPosition, controlsOwnTheirEvents, insertBlock, placeCursorIn, useTypedField } from './containers.ts';

// The hiding of the tabs not shown is static CSS, one rule per place a shown tab can have.
const MOST_TABS = 40;

const titleOf = (item: ProseMirrorNode): string => {
  const title = (item.attrs.data as Record<string, unknown> | null)?.title;
  return typeof title === 'string' ? title : '';
};

function TabTitle({ title, index, shown, onFocus, onRename }: { title: string; index: number; shown: boolean; onFocus: () => void; onRename: (title: string) => void }) {
  const field = useTypedField(title, onRename);
  return (
    <input
      {...field}
      aria-label={`Title of tab ${index + 1}${shown ? ' (shown)' : ''}`}
      placeholder="Untitled"
      size={Math.max(6, field.value.length + 1)}
      onFocus={() => {
        field.onFocus();
        onFocus();
      }}
    />
  );
}

function TabsView({ node, editor, getPos }: NodeViewProps) {
  const [chosen, setChosen] = useState(0);
  const shown = Math.min(chosen, node.childCount - 1);

  // The tab that holds the cursor is the one shown.
  useEffect(() => {
    const follow = () => {
      const position = getPos();
      const { $from } = editor.state.selection;
      for (let depth = $from.depth; depth > 0; depth--) {
        if ($from.before(depth) === position && $from.node(depth).type.name === 'tabs') {
          setChosen($from.index(depth));
          return;
        }
      }
    };
    editor.on('selectionUpdate', follow);
    return () => void editor.off('selectionUpdate', follow);
  }, [editor, getPos]);

  const position = () => getPos() ?? 0;
  const rename = (index: number, title: string) => {
    // The tabs as they are now: titles typed quickly change them between renders.
    const current = editor.state.doc.nodeAt(position());
    if (!current || index >= current.childCount) return;
    editor.view.dispatch(editor.state.tr.setNodeAttribute(childPosition(current, position(), index), 'data', { ...current.child(index).attrs.data, title }));
  };
  const add = () => {
    const { tabsItem, paragraph } = editor.schema.nodes;
    const at = position() + node.nodeSize - 1;
    const tr = editor.state.tr.insert(at, tabsItem.create({ data: { title: `Tab ${node.childCount + 1}` } }, paragraph.create()));
    setChosen(node.childCount);
    placeCursorIn(editor, tr, at);
  };
  const remove = (index: number) => {
    const at = childPosition(node, position(), index);
    const tr = editor.state.tr.delete(at, at + node.child(index).nodeSize);
    setChosen(Math.max(0, index - 1));
    placeCursorIn(editor, tr, childPosition(tr.doc.nodeAt(position())!, position(), Math.max(0, index - 1)));
  };

  const titles: string[] = [];
  node.forEach((item) => titles.push(titleOf(item)));
  return (
    <NodeViewWrapper className="quire-tabs" data-shown={shown}>
      <div contentEditable={false} data-controls className="quire-tabs-bar" role="group" aria-label="Tabs">
        {titles.map((title, index) => (
          <div key={index} className="quire-tab" data-shown={index === shown || undefined}>
            <TabTitle title={title} index={index} shown={index === shown} onFocus={() => setChosen(index)} onRename={(text) => rename(index, text)} />
            {index === shown && titles.length > 1 && (
              <button type="button" className="quire-tab-remove" aria-label={`Remove the tab “${title || 'Untitled'}”`} title="Remove this tab" onClick={() => remove(index)}>
                ×
              </button>
            )}
          </div>
        ))}
        {titles.length < MOST_TABS && (
          <button type="button" className="quire-tabs-add" aria-label="Add a tab" title="Add a tab" onClick={add}>
            +
          </button>
        )}
      </div>
      <NodeViewContent className="quire-tabs-content" />
    </NodeViewWrapper>
  );
}

const hidden = Array.from({ length: MOST_TABS }, (_, index) =>
  `.${EDITOR_CLASS} .quire-tabs[data-shown="${index}"] > .quire-tabs-content > [data-node-view-content-react] > [data-type="tabsItem"]:not(:nth-child(${index + 1}))`,
).join(',\n');

export const part: EditorPart = {
  views: { tabs: ReactNodeViewRenderer(TabsView, { stopEvent: controlsOwnTheirEvents }) },
  slash: [
    {
      title: 'Tabs',
      description: 'Content in tabs, one shown at a time.',
      keywords: ['tab', 'tabbed', 'switch', 'variants'],
      group: 'Blocks',
      insert: (editor, range) => {
        const { tabs, tabsItem, paragraph } = editor.schema.nodes;
        insertBlock(editor, range, tabs.create({ data: {} }, [
          tabsItem.create({ data: { title: 'First tab' } }, paragraph.create()),
          tabsItem.create({ data: { title: 'Second tab' } }, paragraph.create()),
        ]));
      },
    },
  ],
  styles: `
.${EDITOR_CLASS} .quire-tabs { margin: 0.75rem 0; border: 1px solid var(--mantine-color-default-border); border-radius: var(--mantine-radius-sm); }
.${EDITOR_CLASS} .quire-tabs-bar { display: flex; flex-wrap: wrap; align-items: stretch; gap: 0.25rem; padding: 0.25rem 0.5rem 0; border-bottom: 1px solid var(--mantine-color-default-border); }
.${EDITOR_CLASS} .quire-tab { display: flex; align-items: center; border-bottom: 2px solid transparent; }
.${EDITOR_CLASS} .quire-tab[data-shown] { border-bottom-color: var(--mantine-primary-color-filled); }
.${EDITOR_CLASS} .quire-tab input { max-width: 14rem; padding: 0.25rem 0.375rem; border: 1px solid transparent; border-radius: var(--mantine-radius-xs); background: none; color: var(--mantine-color-dimmed); font: inherit; font-size: var(--mantine-font-size-sm); }
.${EDITOR_CLASS} .quire-tab[data-shown] input { color: var(--mantine-color-text); font-weight: 600; }
.${EDITOR_CLASS} .quire-tab input:hover { border-color: var(--mantine-color-default-border); }
.${EDITOR_CLASS} .quire-tab input:focus-visible, .${EDITOR_CLASS} .quire-tabs-bar button:focus-visible { outline: 2px solid var(--mantine-primary-color-filled); outline-offset: -2px; }
.${EDITOR_CLASS} .quire-tabs-bar button { min-width: 1.75rem; border: 0; border-radius: var(--mantine-radius-xs); background: none; color: var(--mantine-color-dimmed); font-size: 1.1rem; line-height: 1; cursor: pointer; }
.${EDITOR_CLASS} .quire-tabs-bar button:hover { background: var(--mantine-color-default-hover); color: var(--mantine-color-text); }
.${EDITOR_CLASS} .quire-tabs-content { padding: 0.25rem 0.75rem; }
.${EDITOR_CLASS} .quire-tabs-content > [data-node-view-content-react] > div[data-type="tabsItem"] { margin: 0; padding: 0; border: 0; }
${hidden} { display: none; }
`,
};
