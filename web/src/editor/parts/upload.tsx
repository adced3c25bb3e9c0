// Adding images and files: dropped on the page, pasted, or picked (the Image and File
// items of the slash menu, the toolbar's button). Each goes into the change request
// (uploads.ts) with a progress bar here; the page gets its block once it is stored.
// Pasting text, HTML or markdown is another part's (paste.ts): this one acts only when
// the clipboard or the drop holds files and no words.
import { Affix, Button, CloseButton, Group, Paper, Progress, Stack, Text } from '@mantine/core';
import type { Editor } from '@tiptap/core';
import { Plugin } from '@tiptap/pm/state';
import { useEffect, useSyncExternalStore } from 'react';
import type { EditorPart, PartProps } from '../part.ts';
import { EDITOR_CLASS } from '../styles.ts';
import { addFiles, IMAGE_ACCEPT, pickFiles, uploadListOf, uploadPlacesPlugin, type UploadWish } from '../uploads.ts';

const filesOf = (transfer: DataTransfer | null | undefined): File[] => [...(transfer?.files ?? [])];

function dropAndPastePlugin(editor: Editor): Plugin {
  return new Plugin({
    props: {
      handleDrop(view, event, _slice, moved) {
        const files = filesOf(event.dataTransfer);
        if (moved || files.length === 0) return false;
        event.preventDefault();
        const pos = view.posAtCoords({ left: event.clientX, top: event.clientY })?.pos ?? view.state.selection.from;
        addFiles(editor, files, pos, 'any');
        return true;
      },
      handlePaste(view, event) {
        const files = filesOf(event.clipboardData);
        // Words with the files (a copy from a word processor brings a picture of them too): the words are what was meant.
        if (files.length === 0 || (event.clipboardData?.getData('text/plain') ?? '').trim() !== '') return false;
        addFiles(editor, files, view.state.selection.from, 'any');
        return true;
      },
    },
  });
}

/** The picker, then the chosen files uploaded to where the cursor was. */
function pickInto(editor: Editor, wish: UploadWish, at: number): void {
  pickFiles(wish === 'image' ? IMAGE_ACCEPT : '', true, (files) => addFiles(editor, files, at, wish));
}

function UploadButton({ editor }: PartProps) {
  return (
    <Button size="xs" variant="default" onClick={() => pickInto(editor, 'any', editor.state.selection.from)}>
      Add image or file
    </Button>
  );
}

/**
 * What is uploading (a bar each) and what was refused or failed (why, until dismissed).
 * Files dropped beside the editor go where the cursor is, rather than the browser
 * leaving the page to open them.
 */
function UploadProgress({ editor }: PartProps) {
  const list = uploadListOf(editor);
  const entries = useSyncExternalStore(list.subscribe, list.snapshot);

  useEffect(() => {
    const hasFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') ?? false;
    const over = (event: DragEvent) => hasFiles(event) && event.preventDefault();
    const drop = (event: DragEvent) => {
      if (!hasFiles(event) || event.defaultPrevented) return;
      event.preventDefault();
      addFiles(editor, filesOf(event.dataTransfer), editor.state.selection.from, 'any');
    };
    window.addEventListener('dragover', over);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragover', over);
      window.removeEventListener('drop', drop);
    };
  }, [editor]);

  if (entries.length === 0) return null;
  return (
    <Affix position={{ bottom: 16, right: 16 }} zIndex={300} className="quire-uploads">
      <Paper component="section" aria-label="Uploads" shadow="md" p="sm" withBorder maw="min(24rem, calc(100vw - 32px))">
        <Stack gap="xs">
          {entries.map((entry) =>
            entry.state === 'uploading' ? (
              <Stack key={entry.id} gap={4}>
                <Text size="sm" truncate="end">
                  Uploading {entry.name}… {Math.round(entry.share * 100)}%
                </Text>
                <Progress.Root>
                  <Progress.Section value={entry.share * 100} aria-label={`Uploading ${entry.name}`} />
                </Progress.Root>
              </Stack>
            ) : (
              <Group key={entry.id} role="alert" className="quire-upload-failed" gap="xs" wrap="nowrap" align="flex-start">
                <Stack gap={2} style={{ flex: 1 }}>
                  <Text size="sm" fw={700}>
                    Not added
                  </Text>
                  <Text size="sm">{entry.message}</Text>
                </Stack>
                <CloseButton size="sm" aria-label="Dismiss" onClick={() => list.dismiss(entry.id)} />
              </Group>
            ),
          )}
        </Stack>
      </Paper>
    </Affix>
  );
}

export const part: EditorPart = {
  order: 60,
  plugins: (editor) => [uploadPlacesPlugin(), dropAndPastePlugin(editor)],
  slash: [
    {
      title: 'Image',
      description: 'Upload a PNG, JPEG, GIF, WebP or SVG picture (up to 1 MB)',
      keywords: ['picture', 'photo', 'img', 'upload', 'screenshot'],
      group: 'Media',
      insert: (editor, range) => {
        editor.chain().focus().deleteRange(range).run();
        pickInto(editor, 'image', editor.state.selection.from);
      },
    },
    {
      title: 'File',
      description: 'Upload a file readers can download (up to 1 MB)',
      keywords: ['attachment', 'upload', 'download', 'pdf'],
      group: 'Media',
      insert: (editor, range) => {
        editor.chain().focus().deleteRange(range).run();
        pickInto(editor, 'file', editor.state.selection.from);
      },
    },
  ],
  toolbar: UploadButton,
  overlay: UploadProgress,
  styles: `
.quire-upload-failed { padding-left: 0.5rem; border-left: 3px solid var(--mantine-color-red-filled); }
.${EDITOR_CLASS} .quire-upload-place { display: inline-block; margin: 0.25rem 0; padding: 0.125rem 0.5rem; border-radius: var(--mantine-radius-sm); background: var(--mantine-color-default-hover); color: var(--mantine-color-dimmed); font-size: 0.85em; }
`,
};
