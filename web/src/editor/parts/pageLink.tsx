// Page links: GitBook's `content-ref` block, a card leading to a page ("Page link" in the
// slash menu, the page chosen with the reference picker). The card shows the page's
// emoji, title and path as the change request holds it, and says so when the page is
// not there any more; Change picks another page.
import { Button, Group, Text } from '@mantine/core';
import type { Editor } from '@tiptap/core';
import { NodeViewWrapper, ReactNodeViewRenderer, type ReactNodeViewProps } from '@tiptap/react';
import type { ContentRef } from '../../../../src/content/gitbook/model.ts';
import type { EditorPart } from '../part.ts';
import { contextOf } from '../part.ts';
import { insertBlockHere, pageGlyph, refLabel, useChangeRequestContent } from '../references.ts';
import { openReferencePicker } from './link.tsx';

function pickPage(editor: Editor, title: string, onPick: (ref: ContentRef) => void) {
  openReferencePicker(editor, { purpose: 'pageLink', title, onPick });
}

function PageLinkView({ node, editor, updateAttributes, selected }: ReactNodeViewProps) {
  const { data, index } = useChangeRequestContent(contextOf(editor));
  const ref = node.attrs.data?.ref as ContentRef | undefined;
  const pageId = ref?.kind === 'page' || ref?.kind === 'anchor' ? ref.page : undefined;
  const entry = pageId ? index?.byId.get(pageId) : undefined;
  const missing = index !== undefined && pageId !== undefined && !entry && !(ref && 'space' in ref && ref.space);
  const title = entry ? entry.page.title : ref?.kind === 'page' ? (index ? 'A missing page' : '…') : refLabel(ref, data, index);
  return (
    <NodeViewWrapper className="quire-page-link" data-selected={selected || undefined} contentEditable={false}>
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <div style={{ minWidth: 0 }}>
          <Text size="xs" c="dimmed">
            Page link
          </Text>
          <Text fw={600} truncate="end" className={missing ? 'quire-reference-problem' : undefined}>
            {entry && pageGlyph(entry.page.emoji) && <span aria-hidden="true">{pageGlyph(entry.page.emoji)} </span>}
            {title}
          </Text>
          {missing ? (
            <Text size="sm" className="quire-reference-problem">
              This page does not exist in this change request. Choose another, or remove the card.
            </Text>
          ) : (
            entry?.page.path && (
              <Text size="xs" c="dimmed" truncate="end">
                {entry.page.path}
              </Text>
            )
          )}
        </div>
        {editor.isEditable && (
          <Button
            size="compact-sm"
            variant="default"
            aria-label={`Change the page this card leads to (${title})`}
            onClick={() => pickPage(editor, 'Change the page link', (picked) => updateAttributes({ data: { ...(node.attrs.data ?? {}), ref: picked } }))}
          >
            Change
          </Button>
        )}
      </Group>
    </NodeViewWrapper>
  );
}

export const part: EditorPart = {
  order: 70,
  views: { contentRef: ReactNodeViewRenderer(PageLinkView) },
  slash: [
    {
      title: 'Page link',
      description: 'A card that leads to a page of this space',
      keywords: ['content ref', 'card', 'page', 'reference', 'link'],
      group: 'References',
      insert: (editor, range) => {
        editor.chain().focus().deleteRange(range).run();
        pickPage(editor, 'Page link', (ref) => insertBlockHere(editor, 'contentRef', { ref }));
      },
    },
  ],
  styles: `
.quire-editor .quire-page-link { margin: 0.5rem 0; padding: 0.6rem 0.8rem; border: 1px solid var(--mantine-color-default-border); border-radius: var(--mantine-radius-md); background: var(--mantine-color-body); }
.quire-editor .quire-page-link[data-selected] { outline: 2px solid var(--mantine-primary-color-filled); }
`,
};
