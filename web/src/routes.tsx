// The app's paths (docs/app.md; the server serves the app at each) and the screen of
// each. Screens load on demand, so the first screen's JavaScript stays small: to add
// one, write it in features/<feature>/components/ and name it here with `screen`.
import { lazy, Suspense, type ComponentType } from 'react';
import { createBrowserRouter, Outlet, type RouteObject } from 'react-router';
import { RouteErrorScreen } from './components/ErrorScreen.tsx';
import { FullPageLoader } from './components/FullPageLoader.tsx';
import { RequireSession } from './features/auth/components/RequireSession.tsx';
import { prefetchSpace } from './features/pages/queries/prefetch.ts';

/**
 * A route's screen, loaded when it is first shown: `screen(() => import('…'), 'ExportName')`.
 * React's lazy rather than the router's: the router loads every matched route's module
 * before rendering, so a signed-out visit to `/` fetched the signed-in frame and home
 * screen that the guard never shows.
 */
function screen<Module extends Record<string, unknown>>(load: () => Promise<Module>, name: keyof Module & string): Pick<RouteObject, 'Component'> {
  return { Component: lazy(async () => ({ default: (await load())[name] as ComponentType })) };
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
            ...screen(() => import('./layout/AppLayout.tsx'), 'AppLayout'),
            children: [
              { index: true, ...screen(() => import('./features/organizations/components/HomeScreen.tsx'), 'HomeScreen') },
              { path: 'account', ...screen(() => import('./features/account/components/AccountScreen.tsx'), 'AccountScreen') },
              // Finding and reading (features organizations, spaces, pages, changeRequests).
              { path: 'o/:organizationId', ...screen(() => import('./features/organizations/components/OrganizationScreen.tsx'), 'OrganizationScreen') },
              { path: 'o/:organizationId/trash', ...screen(() => import('./features/spaces/components/TrashScreen.tsx'), 'TrashScreen') },
              { path: 'o/:organizationId/c/:collectionId', ...screen(() => import('./features/spaces/components/CollectionScreen.tsx'), 'CollectionScreen') },
              { path: 's/:spaceId/~/changes', ...screen(() => import('./features/changeRequests/components/ChangeRequestsScreen.tsx'), 'ChangeRequestsScreen') },
              { path: 's/:spaceId/~/changes/:changeRequestNumber/*', ...screen(() => import('./features/changeRequests/components/ChangeRequestScreen.tsx'), 'ChangeRequestScreen') },
              { path: 's/:spaceId/~/revisions/:revisionId/*', loader: prefetchSpace, ...screen(() => import('./features/pages/components/SpaceScreen.tsx'), 'SpaceScreen') },
              { path: 's/:spaceId/*', loader: prefetchSpace, ...screen(() => import('./features/pages/components/SpaceScreen.tsx'), 'SpaceScreen') },
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
