// The collections and spaces under one parent (the organization's top level or a
// collection), nested as a tree of links, each with the actions its `permissions` allow.
import { Anchor, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Collection, Space } from '../api/spaces.ts';
import { ItemActions, type TreeItem } from './ItemActions.tsx';

interface Props {
  organizationId: string;
  parent: string | undefined;
  collections: Collection[];
  spaces: Space[];
  onDeleted: (item: TreeItem) => void;
}

export function ContentTree(props: Props) {
  return (
    <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
      <Branch {...props} depth={0} />
    </ul>
  );
}

function Branch({ organizationId, parent, collections, spaces, onDeleted, depth }: Props & { depth: number }) {
  const childCollections = collections.filter((collection) => collection.parent === parent);
  const childSpaces = spaces.filter((space) => space.parent === parent);
  return (
    <>
      {childCollections.map((collection) => (
        <li key={collection.id}>
          <Row depth={depth}>
            <Anchor component={Link} to={`/o/${organizationId}/c/${collection.id}/`} fw={600}>
              {collection.title}
            </Anchor>
            <ItemActions organizationId={organizationId} item={{ kind: 'collection', value: collection }} collections={collections} onDeleted={onDeleted} />
          </Row>
          <ul style={{ listStyle: 'none', margin: 0, padding: 0 }} aria-label={`In ${collection.title}`}>
            <Branch organizationId={organizationId} parent={collection.id} collections={collections} spaces={spaces} onDeleted={onDeleted} depth={depth + 1} />
          </ul>
        </li>
      ))}
      {childSpaces.map((space) => (
        <li key={space.id}>
          <Row depth={depth}>
            <Anchor component={Link} to={`/s/${space.id}/`}>
              {space.emoji && <span aria-hidden="true">{space.emoji} </span>}
              {space.title || 'Untitled space'}
            </Anchor>
            <ItemActions organizationId={organizationId} item={{ kind: 'space', value: space }} collections={collections} onDeleted={onDeleted} />
          </Row>
        </li>
      ))}
    </>
  );
}

function Row({ depth, children }: { depth: number; children: React.ReactNode }) {
  return (
    <Group justify="space-between" wrap="nowrap" py={6} pl={`calc(${depth} * 1.5rem)`} style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
      {children}
    </Group>
  );
}

/** Said when a parent holds nothing yet: what to do next depends on whether the person may create. */
export function EmptyTree({ canCreate }: { canCreate: boolean }) {
  return (
    <Stack gap={4} py="md">
      <Text fw={600}>Nothing here yet</Text>
      <Text size="sm" c="dimmed">
        {canCreate ? 'Create a space to start writing, or a collection to group spaces.' : 'Spaces shared with you will appear here. Ask an administrator for access to one.'}
      </Text>
    </Stack>
  );
}
