// An organization's or a collection's contents: create a space or a collection in it
// (when the API says the person may), the tree below, and a just-deleted space's restore
// with the way to the trash, where it can be found later.
import { Alert, Anchor, Button, Group, Skeleton, Stack, TextInput } from '@mantine/core';
import { Link } from 'react-router';
import { Dialog } from './Dialog.tsx';
import { useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { ErrorScreen } from '../../../components/ErrorScreen.tsx';
import { useCollections, useCreateCollection, useCreateSpace, useRestoreSpace, useSpaces } from '../queries/spaces.ts';
import { ContentTree, EmptyTree } from './ContentTree.tsx';
import type { TreeItem } from './ItemActions.tsx';

interface Props {
  organizationId: string;
  /** The collection shown, or undefined for the organization's top level. */
  parent?: string;
  canCreate: boolean;
}

export function ContentsPanel({ organizationId, parent, canCreate }: Props) {
  const spaces = useSpaces(organizationId);
  const collections = useCollections(organizationId);
  const [creating, setCreating] = useState<'space' | 'collection' | null>(null);
  const [deleted, setDeleted] = useState<TreeItem | null>(null);
  const restore = useRestoreSpace(organizationId);
  const error = spaces.error ?? collections.error;
  if (error) return <ErrorScreen error={error} onRetry={() => void Promise.all([spaces.refetch(), collections.refetch()])} />;
  if (!spaces.data || !collections.data) return <Skeleton height={160} aria-label="Loading the spaces" />;
  const empty = !spaces.data.some((space) => space.parent === parent) && !collections.data.some((collection) => collection.parent === parent);
  return (
    <Stack gap="md">
      {canCreate && (
        <Group gap="sm">
          <Button onClick={() => setCreating('space')}>New space</Button>
          <Button variant="outline" onClick={() => setCreating('collection')}>
            New collection
          </Button>
        </Group>
      )}
      {deleted && (
        <Alert color="gray" variant="outline" role="status" title={`${deleted.value.title || 'The ' + deleted.kind} was deleted`} withCloseButton closeButtonLabel="Dismiss" onClose={() => setDeleted(null)}>
          <Stack gap="xs" align="flex-start">
            <span>{deleted.kind === 'space' ? 'It stays in the trash for 7 days and can be restored until then.' : 'Its spaces stay in the trash for 7 days.'}</span>
            <ErrorAlert error={restore.error} />
            {deleted.kind === 'space' && (
              <Button size="xs" variant="default" loading={restore.isPending} onClick={() => restore.mutate(deleted.value.id, { onSuccess: () => setDeleted(null) })}>
                Restore {deleted.value.title}
              </Button>
            )}
            <Anchor component={Link} to={`/o/${organizationId}/trash`} size="sm">
              Open the trash
            </Anchor>
          </Stack>
        </Alert>
      )}
      {empty ? (
        <EmptyTree canCreate={canCreate} />
      ) : (
        <nav aria-label="Collections and spaces">
          <ContentTree organizationId={organizationId} parent={parent} collections={collections.data} spaces={spaces.data} onDeleted={setDeleted} />
        </nav>
      )}
      <CreateDialog organizationId={organizationId} parent={parent} kind={creating} onClose={() => setCreating(null)} />
    </Stack>
  );
}

function CreateDialog({ organizationId, parent, kind, onClose }: { organizationId: string; parent?: string; kind: 'space' | 'collection' | null; onClose: () => void }) {
  const createSpace = useCreateSpace(organizationId);
  const createCollection = useCreateCollection(organizationId);
  const creating = kind === 'collection' ? createCollection : createSpace;
  const close = () => {
    createSpace.reset();
    createCollection.reset();
    onClose();
  };
  return (
    <Dialog opened={kind !== null} onClose={close} title={kind === 'collection' ? 'New collection' : 'New space'}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const title = String(new FormData(event.currentTarget).get('title') ?? '').trim();
          creating.mutate({ title, ...(parent ? { parent } : {}) }, { onSuccess: close });
        }}
      >
        <Stack>
          <ErrorAlert error={creating.error} />
          <TextInput name="title" label="Title" required maxLength={50} data-autofocus />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={creating.isPending}>
              Create {kind}
            </Button>
          </Group>
        </Stack>
      </form>
    </Dialog>
  );
}
