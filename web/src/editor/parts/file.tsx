// GitBook's `file` block: a file of the change request readers download (data.ref), shown
// with its name, size and kind, and the caption Quire keeps with it (the `caption`
// fragment, which Git Sync writes between `{% file %}` and `{% endfile %}`). Files are
// added by the upload part (the File item, a drop, a paste).
import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { keymap } from '@tiptap/pm/keymap';
import { NodeSelection, TextSelection } from '@tiptap/pm/state';
import { NodeViewContent, NodeViewWrapper, ReactNodeViewRenderer, type ReactNodeViewProps } from '@tiptap/react';
import { contextOf, type EditorPart } from '../part.ts';
import { EDITOR_CLASS } from '../styles.ts';
import { captionOwnerDepth, emptyCaption, pickFiles, sizeText, uploadForField, useFileSource } from '../uploads.ts';

/**
 * The caption of a block that may have none (a file, an embed): written in place, or a
 * button that gives the block one. One left empty is stored as none (Git Sync's
 * markdown has no empty caption for these), so it is gone when the page opens again.
 */
export function CaptionSlot({ node, editor, getPos }: Pick<ReactNodeViewProps, 'node' | 'editor' | 'getPos'>) {
  const addCaption = () => {
    const pos = getPos();
    if (pos === undefined) return;
    const end = pos + node.nodeSize - 1;
    const tr = editor.state.tr.insert(end, emptyCaption(editor.schema));
    tr.setSelection(TextSelection.create(tr.doc, end + 2));
    editor.view.dispatch(tr);
    editor.view.focus();
  };
  return (
    <>
      <NodeViewContent className="quire-caption" />
      {node.childCount === 0 && (
        <Button contentEditable={false} size="compact-xs" variant="subtle" onClick={addCaption}>
          Add a caption
        </Button>
      )}
    </>
  );
}

/**
 * A caption (an image's, a file's, an embed's) is one line of words, as in GitBook: Enter
 * goes on in a new paragraph after its block; Backspace at its start selects the block
 * (a second one deletes it) and Delete at its end does nothing, where ProseMirror would
 * split the caption or join a block's words into it, which markdown cannot keep.
 */
const captionKeys = () =>
  keymap({
    Enter: (state, dispatch) => {
      const depth = captionOwnerDepth(state.selection.$from);
      if (depth === undefined) return false;
      const after = state.selection.$from.after(depth);
      const tr = state.tr.insert(after, state.schema.nodes.paragraph.create());
      dispatch?.(tr.setSelection(TextSelection.create(tr.doc, after + 1)).scrollIntoView());
      return true;
    },
    Backspace: (state, dispatch) => {
      const { $from, empty } = state.selection;
      const depth = captionOwnerDepth($from);
      if (depth === undefined || !empty || $from.parentOffset > 0 || $from.index($from.depth - 1) > 0) return false;
      dispatch?.(state.tr.setSelection(NodeSelection.create(state.doc, $from.before(depth))));
      return true;
    },
    Delete: (state) => {
      const { $from, empty } = state.selection;
      return captionOwnerDepth($from) !== undefined && empty && $from.parentOffset === $from.parent.content.size && $from.index($from.depth - 1) === $from.node($from.depth - 1).childCount - 1;
    },
  });

function FileView(props: ReactNodeViewProps) {
  const { node, editor } = props;
  const source = useFileSource(contextOf(editor), (node.attrs.data ?? {}).ref);
  const file = source.file;
  const replace = () =>
    pickFiles('', false, async ([chosen]) => {
      const uploaded = chosen && (await uploadForField(editor, chosen, 'file'));
      if (uploaded) props.updateAttributes({ data: { ...(node.attrs.data ?? {}), ref: { kind: 'file', file: uploaded.id } } });
    });
  return (
    <NodeViewWrapper className="quire-file">
      <Group contentEditable={false} gap="sm" wrap="nowrap">
        <svg className="quire-file-icon" viewBox="0 0 24 24" width="28" height="28" aria-hidden="true">
          <path d="M6 2h8l6 6v14H6z M14 2v6h6" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinejoin="round" />
        </svg>
        <Stack gap={0} style={{ minWidth: 0, flex: 1 }}>
          <Text fw={600} size="sm" truncate="end">
            {file?.name ?? (source.loading ? 'Loading the file…' : source.problem)}
          </Text>
          {file && (
            <Text size="xs" c="dimmed">
              {sizeText(file.size)} · {file.contentType}
            </Text>
          )}
        </Stack>
        {source.url && (
          <Anchor href={source.url} size="sm" target="_blank" rel="noopener noreferrer" download={file?.name}>
            Download
          </Anchor>
        )}
        <Button size="compact-sm" variant="default" onClick={replace}>
          Replace file
        </Button>
      </Group>
      <CaptionSlot {...props} />
    </NodeViewWrapper>
  );
}

export const part: EditorPart = {
  views: { file: ReactNodeViewRenderer(FileView) },
  plugins: () => [captionKeys()],
  styles: `
.${EDITOR_CLASS} .quire-file { margin: 0.5rem 0; padding: 0.5rem 0.75rem; border: 1px solid var(--mantine-color-default-border); border-radius: var(--mantine-radius-md); }
.${EDITOR_CLASS} .quire-file .quire-caption { text-align: left; }
.${EDITOR_CLASS} .quire-file-icon { flex: none; color: var(--mantine-color-dimmed); }
`,
};
