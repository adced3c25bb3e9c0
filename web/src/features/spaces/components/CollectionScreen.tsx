// `/o/:organizationId/c/:collectionId/`: a collection, what it holds, and the way back up.
import { Anchor, Breadcrumbs, Container, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { Link, useParams } from 'react-router';
import { FullPageLoader } from '../../../components/FullPageLoader.tsx';
import { LoadFailure } from '../../../components/LoadFailure.tsx';
import { useOrganization } from '../../organizations/queries/organizations.ts';
import { useCollection, useCollections } from '../queries/spaces.ts';
import { ContentsPanel } from './ContentsPanel.tsx';

export function CollectionScreen() {
  const { organizationId = '', collectionId = '' } = useParams();
  const collection = useCollection(collectionId);
  const organization = useOrganization(organizationId);
  const collections = useCollections(organizationId);
  useDocumentTitle(collection.data ? `${collection.data.title} · Quire` : 'Quire');
  if (collection.error) return <LoadFailure error={collection.error} what="collection" onRetry={() => void collection.refetch()} />;
  if (!collection.data) return <FullPageLoader />;
  // Its ancestors, outermost first, from the organization's list of collections.
  const ancestors = [];
  for (let parent = collection.data.parent; parent; ) {
    const found = collections.data?.find((candidate) => candidate.id === parent);
    if (!found) break;
    ancestors.unshift(found);
    parent = found.parent;
  }
  return (
    <Container size="lg" py="xl">
      <nav aria-label="Breadcrumb">
      <Breadcrumbs mb="xs">
        <Anchor component={Link} to={`/o/${collection.data.organization}/`} size="sm">
          {organization.data?.title ?? 'Organization'}
        </Anchor>
        {ancestors.map((ancestor) => (
          <Anchor key={ancestor.id} component={Link} to={`/o/${ancestor.organization}/c/${ancestor.id}/`} size="sm">
            {ancestor.title}
          </Anchor>
        ))}
      </Breadcrumbs>
      </nav>
      <Title order={1} size="h2" mb="md">
        {collection.data.title}
      </Title>
      <ContentsPanel organizationId={collection.data.organization} parent={collection.data.id} canCreate={collection.data.permissions.create} />
    </Container>
  );
}
