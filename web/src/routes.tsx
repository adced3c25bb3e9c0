// The app's paths (docs/app.md; the server serves the app at each) and the screen of
// each. Screens load on demand, so the first screen's JavaScript stays small: to add
// one, write it in features/<feature>/components/ and name it here with `screen`.
import { Suspense, use, type ComponentType } from 'react';
import { createBrowserRouter, Outlet, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { RouteErrorScreen } from './components/ErrorScreen.tsx';
import { FullPageLoader } from './components/FullPageLoader.tsx';
import { RequireSession } from './features/auth/components/RequireSession.tsx';
import { prefetchSpace } from './features/pages/queries/prefetch.ts';
import { loadEditablePageTree, loadPageEditor } from './features/changeRequests/components/editing.ts';
import { prefetchChangeRequest } from './features/changeRequests/queries/prefetch.ts';

/**
 * A route's screen, loaded when it is first shown or preloaded by a route's loader:
 * `screen(() => import('…'), 'ExportName')`. Loaded, it renders at once; React's lazy
 * would suspend on every first render even with its module in hand, and React reveals
 * suspended content at most every 300 ms, so the frame and a screen inside it cost up to
 * 600 ms of waiting on a space that has its data. Not the router's lazy: the router
 * loads every matched route's module before rendering, so a signed-out visit to `/`
 * fetched the signed-in frame and home screen that the guard never shows.
 */
function screen<Module extends Record<string, unknown>>(load: () => Promise<Module>, name: keyof Module & string): Pick<RouteObject, 'Component'> & { preload: () => Promise<void> } {
  let loaded: ComponentType | undefined;
  let loading: Promise<void> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (module) => void (loaded = module[name] as ComponentType),
      // A failed load is tried again on the next render, which shows the error if it fails again.
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  function Screen() {
    if (!loaded) use(preload());
    const Loaded = loaded!;
    return <Loaded />;
  }
  return { Component: Screen, preload };
}

const appLayout = screen(() => import('./layout/AppLayout.tsx'), 'AppLayout');
const spaceScreen = screen(() => import('./features/pages/components/SpaceScreen.tsx'), 'SpaceScreen');

/** A space's address: its data and the code of the frame and screen are fetched at once, not each after the one before. */
function loadSpace(args: LoaderFunctionArgs): null {
  // Not awaited: a failure to load shows where the screen renders.
  void appLayout.preload().catch(() => {});
  void spaceScreen.preload().catch(() => {});
  return prefetchSpace(args);
}

const changeRequestScreen = screen(() => import('./features/changeRequests/components/ChangeRequestScreen.tsx'), 'ChangeRequestScreen');

/** A change request's address: as a space's, and with `?edit` the editor's code too. */
function loadChangeRequest(args: LoaderFunctionArgs): null {
  void appLayout.preload().catch(() => {});
  void changeRequestScreen.preload().catch(() => {});
  if (new URL(args.request.url).searchParams.has('edit')) {
    void loadPageEditor().catch(() => {});
    void loadEditablePageTree().catch(() => {});
  }
  return prefetchChangeRequest(args);
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
        ...screen(() => import('./layout/PublicLayout.tsx'), 'PublicLayout'),
        children: [
          { path: 'setup', ...screen(() => import('./features/auth/components/SetupScreen.tsx'), 'SetupScreen') },
          { path: 'sign-in', ...screen(() => import('./features/auth/components/SignInScreen.tsx'), 'SignInScreen') },
          { path: 'sign-in/link/:token', ...screen(() => import('./features/auth/components/SignInLinkScreen.tsx'), 'SignInLinkScreen') },
          { path: 'invite/:organizationId/:inviteId', ...screen(() => import('./features/auth/components/InviteScreen.tsx'), 'InviteScreen') },
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
              { index: true, ...screen(() => import('./features/organizations/components/HomeScreen.tsx'), 'HomeScreen') },
              { path: 'account', ...screen(() => import('./features/account/components/AccountScreen.tsx'), 'AccountScreen') },
              // Finding and reading (features organizations, spaces, pages, changeRequests).
              { path: 'o/:organizationId', ...screen(() => import('./features/organizations/components/OrganizationScreen.tsx'), 'OrganizationScreen') },
              { path: 'o/:organizationId/trash', ...screen(() => import('./features/spaces/components/TrashScreen.tsx'), 'TrashScreen') },
              { path: 'o/:organizationId/c/:collectionId', ...screen(() => import('./features/spaces/components/CollectionScreen.tsx'), 'CollectionScreen') },
              { path: 's/:spaceId/~/changes', ...screen(() => import('./features/changeRequests/components/ChangeRequestsScreen.tsx'), 'ChangeRequestsScreen') },
              { path: 's/:spaceId/~/changes/:changeRequestNumber/*', loader: loadChangeRequest, Component: changeRequestScreen.Component },
              { path: 's/:spaceId/~/revisions/:revisionId/*', loader: loadSpace, Component: spaceScreen.Component },
              { path: 's/:spaceId/*', loader: loadSpace, Component: spaceScreen.Component },
              // Administration (features members, teams, sites, integrations, gitSync, settings).
              { path: 'o/:organizationId/members', ...screen(() => import('./features/members/components/MembersScreen.tsx'), 'MembersScreen') },
              { path: 'o/:organizationId/teams', ...screen(() => import('./features/teams/components/TeamsScreen.tsx'), 'TeamsScreen') },
              { path: 'o/:organizationId/sites', ...screen(() => import('./features/sites/components/SitesScreen.tsx'), 'SitesScreen') },
              { path: 'o/:organizationId/sites/:siteId', ...screen(() => import('./features/sites/components/SiteScreen.tsx'), 'SiteScreen') },
              { path: 'o/:organizationId/integrations', ...screen(() => import('./features/integrations/components/IntegrationsScreen.tsx'), 'IntegrationsScreen') },
              { path: 'o/:organizationId/integrations/:integrationName', ...screen(() => import('./features/integrations/components/IntegrationScreen.tsx'), 'IntegrationScreen') },
              { path: 'o/:organizationId/openapi/:specSlug', ...screen(() => import('./features/settings/components/OpenApiSpecScreen.tsx'), 'OpenApiSpecScreen') },
              { path: 'o/:organizationId/settings', ...screen(() => import('./features/settings/components/SettingsScreen.tsx'), 'SettingsScreen') },
              { path: 's/:spaceId/~/settings', ...screen(() => import('./features/gitSync/components/SpaceSettingsScreen.tsx'), 'SpaceSettingsScreen') },
              { path: 'integrations/:integrationName', ...screen(() => import('./features/integrations/components/IntegrationRedirect.tsx'), 'IntegrationRedirect') },
              { path: '*', ...screen(() => import('./components/NotFoundScreen.tsx'), 'NotFoundScreen') },
            ],
          },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);
