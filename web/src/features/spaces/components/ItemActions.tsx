// A collection's or space's menu: rename, move into or out of a collection, delete. Shown
// only with the `admin` permission the API reports on the item; the API refuses the rest anyway.
import { Button, Group, Menu, Select, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { Dialog } from './Dialog.tsx';
import { useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import type { Collection, Space } from '../api/spaces.ts';
import { useDelete, useMove, useRename } from '../queries/spaces.ts';

export type TreeItem = { kind: 'space'; value: Space } | { kind: 'collection'; value: Collection };

interface Props {
  organizationId: string;
  item: TreeItem;
  collections: Collection[];
  onDeleted: (item: TreeItem) => void;
}

const TOP_LEVEL = '';

export function ItemActions({ organizationId, item, collections, onDeleted }: Props) {
  const [open, setOpen] = useState<'rename' | 'move' | 'delete' | null>(null);
  const rename = useRename(organizationId);
  const move = useMove(organizationId);
  const remove = useDelete(organizationId);
  if (!item.value.permissions.admin) return null;
  const { kind, value } = item;
  const name = value.title || `Untitled ${kind}`;
  const close = () => {
    setOpen(null);
    rename.reset();
    move.reset();
    remove.reset();
  };
  // A collection cannot go into itself or anything inside it.
  const inside = new Set<string>(kind === 'collection' ? [value.id] : []);
  for (let grew = true; grew; ) {
    grew = false;
    for (const collection of collections) {
      if (collection.parent && inside.has(collection.parent) && !inside.has(collection.id)) {
        inside.add(collection.id);
        grew = true;
      }
    }
  }
  const destinations = [{ value: TOP_LEVEL, label: 'Top level of the organization' }, ...collections.filter((collection) => !inside.has(collection.id)).map((collection) => ({ value: collection.id, label: collection.title }))];
  return (
    <>
      <Menu position="bottom-end" withinPortal={false} trapFocus={false} withInitialFocusPlaceholder={false}>
        <Menu.Target>
          <UnstyledButton aria-label={`Actions for ${name}`} w={36} h={36} ta="center" fz="lg" style={{ borderRadius: 4, flex: 'none' }}>
            <span aria-hidden="true">⋯</span>
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item onClick={() => setOpen('rename')}>Rename</Menu.Item>
          <Menu.Item onClick={() => setOpen('move')}>Move</Menu.Item>
          <Menu.Item color="red" onClick={() => setOpen('delete')}>
            Delete
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <Dialog opened={open === 'rename'} onClose={close} title={`Rename ${name}`}>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            const title = String(new FormData(event.currentTarget).get('title') ?? '').trim();
            rename.mutate({ kind, id: value.id, title }, { onSuccess: close });
          }}
        >
          <Stack>
            <ErrorAlert error={rename.error} />
            <TextInput name="title" label="Title" defaultValue={value.title} required maxLength={50} data-autofocus />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={rename.isPending}>
                Rename
              </Button>
            </Group>
          </Stack>
        </form>
      </Dialog>
      <Dialog opened={open === 'move'} onClose={close} title={`Move ${name}`}>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            const parent = String(new FormData(event.currentTarget).get('parent') ?? TOP_LEVEL);
            move.mutate({ kind, id: value.id, parent: parent === TOP_LEVEL ? null : parent }, { onSuccess: close });
          }}
        >
          <Stack>
            <ErrorAlert error={move.error} />
            <Select name="parent" label="Move into" data={destinations} defaultValue={value.parent ?? TOP_LEVEL} allowDeselect={false} comboboxProps={{ withinPortal: false }} data-autofocus />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={move.isPending}>
                Move
              </Button>
            </Group>
          </Stack>
        </form>
      </Dialog>
      <Dialog opened={open === 'delete'} onClose={close} title={`Delete ${name}?`}>
        <Stack>
          <ErrorAlert error={remove.error} />
          <Text size="sm">
            {kind === 'space'
              ? 'The space and its pages go to the trash. It can be restored for 7 days, then it is removed for good.'
              : 'The collection and the collections in it are deleted; its spaces go to the trash and can be restored for 7 days.'}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={close} data-autofocus>
              Cancel
            </Button>
            <Button
              color="red"
              loading={remove.isPending}
              // mutateAsync, not mutate's onSuccess: the lists read again first, which takes this row (and this menu) away, and mutate's callbacks do not run for a component gone.
              onClick={() => void remove.mutateAsync({ kind, id: value.id }).then(() => (close(), onDeleted(item)), () => {})}
            >
              Delete {kind}
            </Button>
          </Group>
        </Stack>
      </Dialog>
    </>
  );
}
