// OpenAPI operations: GitBook's `openapi-operation` block, one operation of one of the
// organization's OpenAPI specs ("OpenAPI operation" in the slash menu: a spec, then one
// of its operations). Its data is GitBook's: `ref` the spec by slug (`{kind: 'openapi',
// spec}`), `path` and `method`. The page shows the method, the path and the operation's
// summary from the spec's newest version; the published page shows the whole operation.
import { Alert, Button, Group, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { Dialog } from '../../features/spaces/components/Dialog.tsx';
import type { Editor } from '@tiptap/core';
import { NodeViewWrapper, ReactNodeViewRenderer, type ReactNodeViewProps } from '@tiptap/react';
import { useState } from 'react';
import type { EditorPart, PartProps } from '../part.ts';
import { contextOf } from '../part.ts';
import { insertBlockHere, useOpenApiOperations, useOpenApiSpecs, useOrganizationId, type OpenApiOperation } from '../references.ts';
import { dialogRequests, useDialogRequest } from './link.tsx';

const chooserOf = dialogRequests<{ onPick: (spec: string, operation: OpenApiOperation) => void }>();

/** The method as GitBook's blocks show it: in capitals, in a code-like tag. */
function MethodBadge({ method }: { method: string }) {
  return (
    <Text span ff="monospace" fw={700} size="sm" className="quire-openapi-method" data-method={method}>
      {method.toUpperCase()}
    </Text>
  );
}

function OperationChooser({ editor, context }: PartProps) {
  const dialog = chooserOf(editor);
  const request = useDialogRequest(dialog);
  const phone = useMediaQuery('(max-width: 36em)');
  const close = () => {
    dialog.set(undefined);
    editor.commands.focus();
  };
  return (
    <Dialog opened={request !== undefined} onClose={close} title="OpenAPI operation" fullScreen={phone} size="lg">
      {request && (
        <ChooserBody
          context={context}
          onPick={(spec, operation) => {
            request.onPick(spec, operation);
            close();
          }}
        />
      )}
    </Dialog>
  );
}

function ChooserBody({ context, onPick }: { context: PartProps['context']; onPick: (spec: string, operation: OpenApiOperation) => void }) {
  const organizationId = useOrganizationId(context);
  const specs = useOpenApiSpecs(organizationId);
  const [spec, setSpec] = useState<string | undefined>();
  const [filter, setFilter] = useState('');
  const operations = useOpenApiOperations(organizationId, spec);
  const words = filter.trim().toLowerCase();

  if (!spec) {
    return (
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Choose one of the organization’s OpenAPI specs.
        </Text>
        {specs.error && (
          <Alert color="red" role="alert" variant="light">
            The specs could not be read: {specs.error.message}
          </Alert>
        )}
        {specs.isPending && <Text size="sm">Loading the specs…</Text>}
        {specs.data?.items.length === 0 && (
          <Text size="sm" role="status">
            The organization has no OpenAPI spec yet. An administrator adds one in the organization’s settings or with the API (POST /v1/orgs/…/openapi).
          </Text>
        )}
        <Stack gap={2} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }} aria-label="OpenAPI specs">
          {specs.data?.items.map((item) => (
            <li key={item.id}>
              <UnstyledButton className="quire-reference-choice" style={{ display: 'block', width: '100%' }} onClick={() => setSpec(item.slug)}>
                <Text size="sm" fw={500} span>
                  {item.slug}
                </Text>
              </UnstyledButton>
            </li>
          ))}
        </Stack>
      </Stack>
    );
  }
  const found = (operations.data ?? []).filter((operation) => `${operation.method} ${operation.path} ${operation.summary ?? ''}`.toLowerCase().includes(words));
  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm" fw={600}>
          Operations of {spec}
        </Text>
        <Button size="xs" variant="subtle" onClick={() => setSpec(undefined)}>
          Back to the specs
        </Button>
      </Group>
      <TextInput data-autofocus label="Search the operations" placeholder="Path, method or summary" value={filter} onChange={(event) => setFilter(event.currentTarget.value)} />
      {operations.error && (
        <Alert color="red" role="alert" variant="light">
          The spec’s operations could not be read: {operations.error.message} The spec may still be processing: try again in a moment.
        </Alert>
      )}
      {operations.isPending && <Text size="sm">Loading the operations…</Text>}
      {operations.data && found.length === 0 && (
        <Text size="sm" role="status">
          {words ? `No operation matches “${filter.trim()}”.` : 'This spec has no operations.'}
        </Text>
      )}
      <Stack gap={2} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }} aria-label={`Operations of ${spec}`}>
        {found.map((operation) => (
          <li key={`${operation.method} ${operation.path}`}>
            <UnstyledButton className="quire-reference-choice" style={{ display: 'block', width: '100%' }} onClick={() => onPick(spec, operation)}>
              <Group gap="xs" wrap="nowrap">
                <MethodBadge method={operation.method} />
                <Text size="sm" ff="monospace" truncate="end">
                  {operation.path}
                </Text>
              </Group>
              {operation.summary && (
                <Text size="xs" c="dimmed" span display="block">
                  {operation.summary}
                </Text>
              )}
            </UnstyledButton>
          </li>
        ))}
      </Stack>
    </Stack>
  );
}

function OperationView({ node, editor, selected }: ReactNodeViewProps) {
  const data = (node.attrs.data ?? {}) as { ref?: { spec?: string }; path?: string; method?: string };
  const spec = data.ref?.spec;
  const method = String(data.method ?? '').toLowerCase();
  const operations = useOpenApiOperations(useOrganizationId(contextOf(editor)), spec);
  const operation = operations.data?.find((candidate) => candidate.method === method && candidate.path === data.path);
  return (
    <NodeViewWrapper className="quire-openapi-operation" data-selected={selected || undefined} contentEditable={false}>
      <Text size="xs" c="dimmed">
        OpenAPI operation{spec ? ` · ${spec}` : ''}
      </Text>
      <Group gap="xs" wrap="nowrap">
        <MethodBadge method={method} />
        <Text ff="monospace" fw={600} truncate="end">
          {data.path}
        </Text>
      </Group>
      {operation?.summary && <Text size="sm">{operation.summary}</Text>}
      {operations.data && !operation && (
        <Text size="sm" className="quire-reference-problem">
          The spec’s newest version has no {method.toUpperCase()} {data.path}: readers see only its method and path.
        </Text>
      )}
    </NodeViewWrapper>
  );
}

function chooseOperation(editor: Editor) {
  chooserOf(editor).set({
    onPick: (spec, operation) => insertBlockHere(editor, 'openapiOperation', { ref: { kind: 'openapi', spec }, path: operation.path, method: operation.method }),
  });
}

export const part: EditorPart = {
  order: 72,
  views: { openapiOperation: ReactNodeViewRenderer(OperationView) },
  slash: [
    {
      title: 'OpenAPI operation',
      description: 'One operation of an OpenAPI spec, with its parameters and responses',
      keywords: ['api', 'openapi', 'swagger', 'endpoint', 'operation', 'rest'],
      group: 'API',
      insert: (editor, range) => {
        editor.chain().focus().deleteRange(range).run();
        chooseOperation(editor);
      },
    },
  ],
  overlay: OperationChooser,
  styles: `
.quire-editor .quire-openapi-operation { margin: 0.5rem 0; padding: 0.6rem 0.8rem; border: 1px solid var(--mantine-color-default-border); border-radius: var(--mantine-radius-md); }
.quire-openapi-method { flex: none; padding: 0 0.4em; border-radius: var(--mantine-radius-sm); background: var(--mantine-color-default-hover); border-left: 3px solid var(--mantine-color-gray-5); }
.quire-openapi-method[data-method="get"] { border-left-color: var(--mantine-color-blue-6); }
.quire-openapi-method[data-method="post"] { border-left-color: var(--mantine-color-green-6); }
.quire-openapi-method[data-method="put"], .quire-openapi-method[data-method="patch"] { border-left-color: var(--mantine-color-orange-6); }
.quire-openapi-method[data-method="delete"] { border-left-color: var(--mantine-color-red-6); }
.quire-editor .quire-openapi-operation[data-selected] { outline: 2px solid var(--mantine-primary-color-filled); }
`,
};
