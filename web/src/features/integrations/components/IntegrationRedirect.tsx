// `/integrations/:name`: an integration's address outside an organization opens it in the
// organization last opened here (or the first), where it is installed and set up.
import { Navigate, useParams } from 'react-router';
import { ErrorScreen } from '../../../components/ErrorScreen.tsx';
import { FullPageLoader } from '../../../components/FullPageLoader.tsx';
import { lastOrganization, useOrganizations } from '../../organizations/queries/organizations.ts';
import { NotFoundScreen } from '../../../components/NotFoundScreen.tsx';

export function IntegrationRedirect() {
  const { integrationName = '' } = useParams();
  const { data: organizations, error, refetch } = useOrganizations();
  if (error) return <ErrorScreen error={error} onRetry={() => void refetch()} />;
  if (!organizations) return <FullPageLoader />;
  const organization = organizations.find((candidate) => candidate.id === lastOrganization.get()) ?? organizations[0];
  if (!organization) return <NotFoundScreen />;
  return <Navigate to={`/o/${organization.id}/integrations/${encodeURIComponent(integrationName)}`} replace />;
}
