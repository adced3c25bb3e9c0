// The app's paths (docs/app.md; the server serves the app at each) and the screen of
// each. Screens load on demand, so the first screen's JavaScript stays small: to add
// one, write it in features/<feature>/components/ and name it here with `screen`.
import type { ComponentType } from 'react';
import { createBrowserRouter, Outlet, type RouteObject } from 'react-router';
import { RouteErrorScreen } from './components/ErrorScreen.tsx';
import { Placeholder } from './components/Placeholder.tsx';
import { RequireSession } from './features/auth/components/RequireSession.tsx';

/** A route's screen, loaded when the route is first opened: `screen(() => import('…'), 'ExportName')`. */
function screen<Module extends Record<string, unknown>>(load: () => Promise<Module>, name: keyof Module & string): Pick<RouteObject, 'lazy'> {
  return { lazy: async () => ({ Component: (await load())[name] as ComponentType }) };
}

const routes: RouteObject[] = [
  {
    element: <Outlet />,
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
              { path: 'o/:organizationId/*', ...screen(() => import('./features/organizations/components/OrganizationScreen.tsx'), 'OrganizationScreen') },
              // Until their screens land, the API's links to spaces (pages, change requests, revisions) and integrations open these.
              { path: 's/:spaceId/*', element: <Placeholder title="Space" /> },
              { path: 'integrations/:integrationName', element: <Placeholder title="Integration" /> },
              { path: '*', ...screen(() => import('./components/NotFoundScreen.tsx'), 'NotFoundScreen') },
            ],
          },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);
