// The app's paths (docs/app.md; the server serves the app at each) and the screen of
// each. Screens load on demand, so the first screen's JavaScript stays small: to add
// one, write it in features/<feature>/components/ and name it here with `loadable`.
// Not the router's lazy: the router loads every matched route's module before
// rendering, so a signed-out visit to `/` fetched the signed-in frame and home screen
// that the guard never shows.
import { Suspense } from 'react';
import { createBrowserRouter, Outlet, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { RouteErrorScreen } from './components/ErrorScreen.tsx';
import { FullPageLoader } from './components/FullPageLoader.tsx';
import { loadable } from './components/loadable.tsx';
import { RequireSession } from './features/auth/components/RequireSession.tsx';
import { prefetchSpace } from './features/pages/queries/prefetch.ts';
import { editablePageTree, pageEditor } from './features/changeRequests/components/editing.ts';
import { prefetchChangeRequest } from './features/changeRequests/queries/prefetch.ts';

const appLayout = loadable(async () => (await import('./layout/AppLayout.tsx')).AppLayout);
const spaceScreen = loadable(async () => (await import('./features/pages/components/SpaceScreen.tsx')).SpaceScreen);

/**
 * A space's address: its data and the code of the frame and screen are fetched at once, not each after the one before.
 * The data is asked first: the browser sends at most six requests at a time to the server, in the order they are made,
 * and a screen's code is many files; asked after 60 of them, the first read waited 0.4 s for a connection.
 */
function loadSpace(args: LoaderFunctionArgs): null {
  prefetchSpace(args);
  // Not awaited: a failure to load shows where the screen renders.
  void appLayout.preload().catch(() => {});
  void spaceScreen.preload().catch(() => {});
  return null;
}

const changeRequestScreen = loadable(async () => (await import('./features/changeRequests/components/ChangeRequestScreen.tsx')).ChangeRequestScreen);

/** A change request's address: as a space's (its data first), and with `?edit` the editor's code too. */
function loadChangeRequest(args: LoaderFunctionArgs): null {
  prefetchChangeRequest(args);
  void appLayout.preload().catch(() => {});
  void changeRequestScreen.preload().catch(() => {});
  if (new URL(args.request.url).searchParams.has('edit')) {
    void pageEditor.preload().catch(() => {});
    void editablePageTree.preload().catch(() => {});
  }
  return null;
}

const routes: RouteObject[] = [
  {
    element: (
      <Suspense
        fallback={
          <main>
            <FullPageLoader />
          </main>
        }
      >
        <Outlet />
      </Suspense>
    ),
    errorElement: <RouteErrorScreen />,
    children: [
      // Before sign-in.
      {
        ...loadable(async () => (await import('./layout/PublicLayout.tsx')).PublicLayout),
        children: [
          { path: 'setup', ...loadable(async () => (await import('./features/auth/components/SetupScreen.tsx')).SetupScreen) },
          { path: 'sign-in', ...loadable(async () => (await import('./features/auth/components/SignInScreen.tsx')).SignInScreen) },
          { path: 'sign-in/link/:token', ...loadable(async () => (await import('./features/auth/components/SignInLinkScreen.tsx')).SignInLinkScreen) },
          { path: 'invite/:organizationId/:inviteId', ...loadable(async () => (await import('./features/auth/components/InviteScreen.tsx')).InviteScreen) },
        ],
      },
      // Signed in.
      {
        element: (
          <RequireSession>
            <Outlet />
          </RequireSession>
        ),
        children: [
          {
            Component: appLayout.Component,
            children: [
              { index: true, ...loadable(async () => (await import('./features/organizations/components/HomeScreen.tsx')).HomeScreen) },
              { path: 'account', ...loadable(async () => (await import('./features/account/components/AccountScreen.tsx')).AccountScreen) },
              // Finding and reading (features organizations, spaces, pages, changeRequests).
              { path: 'o/:organizationId', ...loadable(async () => (await import('./features/organizations/components/OrganizationScreen.tsx')).OrganizationScreen) },
              { path: 'o/:organizationId/trash', ...loadable(async () => (await import('./features/spaces/components/TrashScreen.tsx')).TrashScreen) },
              { path: 'o/:organizationId/c/:collectionId', ...loadable(async () => (await import('./features/spaces/components/CollectionScreen.tsx')).CollectionScreen) },
              { path: 's/:spaceId/~/changes', ...loadable(async () => (await import('./features/changeRequests/components/ChangeRequestsScreen.tsx')).ChangeRequestsScreen) },
              { path: 's/:spaceId/~/changes/:changeRequestNumber/*', loader: loadChangeRequest, Component: changeRequestScreen.Component },
              { path: 's/:spaceId/~/revisions/:revisionId/*', loader: loadSpace, Component: spaceScreen.Component },
              { path: 's/:spaceId/*', loader: loadSpace, Component: spaceScreen.Component },
              // Administration (features members, teams, sites, integrations, gitSync, settings).
              { path: 'o/:organizationId/members', ...loadable(async () => (await import('./features/members/components/MembersScreen.tsx')).MembersScreen) },
              { path: 'o/:organizationId/teams', ...loadable(async () => (await import('./features/teams/components/TeamsScreen.tsx')).TeamsScreen) },
              { path: 'o/:organizationId/sites', ...loadable(async () => (await import('./features/sites/components/SitesScreen.tsx')).SitesScreen) },
              { path: 'o/:organizationId/sites/:siteId', ...loadable(async () => (await import('./features/sites/components/SiteScreen.tsx')).SiteScreen) },
              { path: 'o/:organizationId/integrations', ...loadable(async () => (await import('./features/integrations/components/IntegrationsScreen.tsx')).IntegrationsScreen) },
              { path: 'o/:organizationId/integrations/:integrationName', ...loadable(async () => (await import('./features/integrations/components/IntegrationScreen.tsx')).IntegrationScreen) },
              { path: 'o/:organizationId/openapi/:specSlug', ...loadable(async () => (await import('./features/settings/components/OpenApiSpecScreen.tsx')).OpenApiSpecScreen) },
              { path: 'o/:organizationId/settings', ...loadable(async () => (await import('./features/settings/components/SettingsScreen.tsx')).SettingsScreen) },
              { path: 's/:spaceId/~/settings', ...loadable(async () => (await import('./features/gitSync/components/SpaceSettingsScreen.tsx')).SpaceSettingsScreen) },
              { path: 'integrations/:integrationName', ...loadable(async () => (await import('./features/integrations/components/IntegrationRedirect.tsx')).IntegrationRedirect) },
              { path: '*', ...loadable(async () => (await import('./components/NotFoundScreen.tsx')).NotFoundScreen) },
            ],
          },
        ],
      },
    ],
  },
];

/** Made once the app has asked who is signed in (main.tsx): making it runs the first address's loader, whose requests would go first. */
export const createRouter = () => createBrowserRouter(routes);
