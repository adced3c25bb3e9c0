// The way up from a space's screens: the organization's spaces, its collections, the space.
import { Anchor, Breadcrumbs } from '@mantine/core';
import { Link } from 'react-router';
import type { Space } from '../api/spaces.ts';
import { useCollections } from '../queries/spaces.ts';

export function SpaceBreadcrumbs({ space }: { space: Space }) {
  const collections = useCollections(space.organization);
  const trail = [];
  for (let parent = space.parent; parent; ) {
    const found = collections.data?.find((candidate) => candidate.id === parent);
    if (!found) break;
    trail.unshift(found);
    parent = found.parent;
  }
  return (
    <nav aria-label="Breadcrumb" style={{ minWidth: 0 }}>
      <Breadcrumbs separatorMargin={6} style={{ flexWrap: 'wrap' }}>
        <Anchor component={Link} to={`/o/${space.organization}/`} size="sm">
          Spaces
        </Anchor>
        {trail.map((collection) => (
          <Anchor key={collection.id} component={Link} to={`/o/${space.organization}/c/${collection.id}/`} size="sm">
            {collection.title}
          </Anchor>
        ))}
        <Anchor component={Link} to={`/s/${space.id}/`} size="sm" fw={600}>
          {space.emoji && <span aria-hidden="true">{space.emoji} </span>}
          {space.title}
        </Anchor>
      </Breadcrumbs>
    </nav>
  );
}
