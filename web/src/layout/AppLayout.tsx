// The frame of every signed-in screen: a header with the organization switcher, search
// (Ctrl-K), the theme toggle and the person's menu, above the screen. A screen that wants a side
// navigation renders Mantine's AppShell.Navbar itself.
import { Anchor, AppShell, Group } from '@mantine/core';
import { Suspense } from 'react';
import { Link, Outlet } from 'react-router';
import { ColorSchemeToggle } from '../components/ColorSchemeToggle.tsx';
import { FullPageLoader } from '../components/FullPageLoader.tsx';
import { UserMenu } from '../features/auth/components/UserMenu.tsx';
import { OrganizationSwitcher } from '../features/organizations/components/OrganizationSwitcher.tsx';
import { SearchSpotlight } from '../features/search/components/SearchSpotlight.tsx';

export function AppLayout() {
  return (
    <AppShell header={{ height: 56 }} padding={0}>
      <AppShell.Header px="md">
        <Group h="100%" justify="space-between" wrap="nowrap">
          <Group gap="xs" wrap="nowrap" miw={0}>
            <Anchor component={Link} to="/" fw={800} size="lg" underline="never" c="inherit">
              Quire
            </Anchor>
            <OrganizationSwitcher />
          </Group>
          <Group gap="sm" wrap="nowrap">
            <SearchSpotlight />
            <ColorSchemeToggle />
            <UserMenu />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Main>
        <Suspense fallback={<FullPageLoader />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
