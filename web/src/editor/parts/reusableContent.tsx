// Reusable content: GitBook's `reusable-content` block, which includes one of the
// space's reusable contents where it stands ("Reusable content" in the slash menu, the
// content chosen from the change request's list, or made there). The page shows it as
// readers will see it; its Edit opens it in the editor where it lives, its own address in
// the change request, since every page that includes it shows what is written there.
import { Alert, Button, Group, Skeleton, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { Dialog } from '../../features/spaces/components/Dialog.tsx';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Editor } from '@tiptap/core';
import { NodeViewWrapper, ReactNodeViewRenderer, type ReactNodeViewProps } from '@tiptap/react';
import { useMemo, useState } from 'react';
import { Link, useLocation } from 'react-router';
import type { JSONDocument } from '../../../../src/content/gitbook/model.ts';
import { api, segment } from '../../api/client.ts';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { contentKeys, useReader } from '../../features/pages/queries/content.ts';
import type { EditorContext, EditorPart, PartProps } from '../part.ts';
import { contextOf } from '../part.ts';
import { insertBlockHere, reusableDocumentsKey, useChangeRequestContent } from '../references.ts';
import { dialogRequests, useDialogRequest } from './link.tsx';

const chooserOf = dialogRequests<{ onPick: (id: string) => void }>();

function ReusableContentChooser({ editor, context }: PartProps) {
  const dialog = chooserOf(editor);
  const request = useDialogRequest(dialog);
  const phone = useMediaQuery('(max-width: 36em)');
  const { data, error, isPending } = useChangeRequestContent(context);
  const close = () => {
    dialog.set(undefined);
    editor.commands.focus();
  };
  const contents = data?.reusableContents ?? [];
  const pick = (id: string) => {
    request?.onPick(id);
    close();
  };
  return (
    <Dialog opened={request !== undefined} onClose={close} title="Reusable content" fullScreen={phone} size="lg">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Blocks kept once and shown in every page that includes them. Choose one to include here.
        </Text>
        {error && (
          <Alert color="red" role="alert" variant="light">
            The reusable contents could not be read: {error.message} Close this and try again.
          </Alert>
        )}
        {isPending && <Text size="sm">Loading the reusable contents…</Text>}
        {data && contents.length === 0 && (
          <Text size="sm" role="status">
            This space has no reusable content yet: make the first below.
          </Text>
        )}
        <Stack gap={2} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }} aria-label="The space’s reusable contents">
          {contents.map((content) => (
            <li key={content.id}>
              <UnstyledButton
                className="quire-reference-choice"
                style={{ display: 'block', width: '100%' }}
                onClick={() => pick(content.id)}
              >
                <Text size="sm" fw={500} span display="block">
                  {content.title}
                </Text>
                {content.git?.path && (
                  <Text size="xs" c="dimmed" span display="block">
                    {content.git.path}
                  </Text>
                )}
              </UnstyledButton>
            </li>
          ))}
        </Stack>
        {request && <NewReusableContent context={context} onMade={pick} />}
      </Stack>
    </Dialog>
  );
}

/** Makes a reusable content of the change request, empty, under the title given; the chooser includes it, and its Edit opens it. */
function NewReusableContent({ context, onMade }: { context: EditorContext; onMade: (id: string) => void }) {
  const client = useQueryClient();
  const [title, setTitle] = useState('');
  const make = useMutation({
    mutationFn: (named: string) =>
      api.post<{ changes: Array<{ object: string; reusableContent?: { id: string } }> }>(`${context.contentUrl}?compat=false`, {
        changes: [{ operation: 'insert_reusable_content', title: named, document: '' }],
      }),
    onSuccess: async (answer) => {
      await client.invalidateQueries({ queryKey: contentKeys.content(context.spaceId, { kind: 'changeRequest', changeRequestId: context.changeRequestId }) });
      const made = answer.changes.find((change) => change.object === 'created_reusable_content')?.reusableContent;
      if (made) onMade(made.id);
    },
  });
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (title.trim()) make.mutate(title.trim());
      }}
    >
      <Stack gap="xs">
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <TextInput label="New reusable content" placeholder="Its title" value={title} maxLength={255} onChange={(event) => setTitle(event.currentTarget.value)} style={{ flex: 1 }} />
          <Button type="submit" variant="default" disabled={!title.trim()} loading={make.isPending}>
            Make and include
          </Button>
        </Group>
        <ErrorAlert error={make.error} />
      </Stack>
    </form>
  );
}

/** The content's document as the change request holds it. */
const useReusableDocument = (context: EditorContext, id: string | undefined) =>
  useQuery({
    queryKey: [...reusableDocumentsKey(context.spaceId, context.changeRequestId), id],
    queryFn: () => api.get<JSONDocument>(`${context.contentUrl}/reusable-contents/${segment(id!)}/document`),
    enabled: id !== undefined,
  });

function ReusableContentView({ node, editor, selected }: ReactNodeViewProps) {
  const context = contextOf(editor);
  const id = (node.attrs.data?.ref as { reusableContent?: string; space?: string } | undefined)?.reusableContent;
  const otherSpace = (node.attrs.data?.ref as { space?: string } | undefined)?.space;
  const { data } = useChangeRequestContent(context);
  const entry = data?.reusableContents?.find((content) => content.id === id);
  const document = useReusableDocument(context, otherSpace && otherSpace !== context.spaceId ? undefined : id);
  const reader = useReader();
  const here = useLocation();
  const html = useMemo(
    () => (reader.data && document.data ? reader.data.renderDocument(document.data, { href: (ref) => (ref.kind === 'url' ? ref.url : undefined) }) : undefined),
    [reader.data, document.data],
  );
  return (
    <NodeViewWrapper className="quire-reusable-content" data-selected={selected || undefined} contentEditable={false}>
      <Text size="xs" c="dimmed" fw={600}>
        Reusable content{entry ? `: ${entry.title}` : ''}
      </Text>
      {document.error ? (
        <Text size="sm" className="quire-reference-problem">
          {otherSpace ? 'This reusable content belongs to another space.' : `This reusable content could not be shown: ${document.error.message}`}
        </Text>
      ) : html === undefined || !reader.data ? (
        <Skeleton height={40} aria-label="Loading the reusable content" />
      ) : (
        <>
          <style>{reader.data.readerStylesheet()}</style>
          {/* The reader's renderer writes hast out escaped (render.ts): this is the published site's own HTML. */}
          <div className={reader.data.READER_CLASS} dangerouslySetInnerHTML={{ __html: html }} />
        </>
      )}
      {id && !otherSpace && (
        <Group gap="xs" mt={4}>
          <Button component={Link} to={`${context.basePath}/~reusable/${encodeURIComponent(id)}?edit`} state={{ from: `${here.pathname}${here.search}` }} size="compact-xs" variant="default">
            Edit reusable content
          </Button>
          <Text size="xs" c="dimmed">
            Every page that includes it shows the change.
          </Text>
        </Group>
      )}
    </NodeViewWrapper>
  );
}

function chooseReusableContent(editor: Editor) {
  chooserOf(editor).set({ onPick: (id) => insertBlockHere(editor, 'reusableContent', { ref: { kind: 'reusable-content', reusableContent: id } }) });
}

export const part: EditorPart = {
  order: 71,
  views: { reusableContent: ReactNodeViewRenderer(ReusableContentView) },
  slash: [
    {
      title: 'Reusable content',
      description: 'Blocks kept once and shown in every page that includes them',
      keywords: ['include', 'snippet', 'reuse', 'shared'],
      group: 'References',
      insert: (editor, range) => {
        editor.chain().focus().deleteRange(range).run();
        chooseReusableContent(editor);
      },
    },
  ],
  overlay: ReusableContentChooser,
  styles: `
.quire-editor .quire-reusable-content { margin: 0.5rem 0; padding: 0.5rem 0.8rem; border: 1px solid var(--mantine-color-default-border); border-left: 3px solid var(--mantine-primary-color-filled); border-radius: var(--mantine-radius-md); }
.quire-editor .quire-reusable-content[data-selected] { outline: 2px solid var(--mantine-primary-color-filled); }
`,
};
