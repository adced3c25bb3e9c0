// The frame of the screens before sign-in (setup, sign-in, links, invites): a narrow card.
import { Anchor, Box, Container, Group } from '@mantine/core';
import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { ColorSchemeToggle } from '../components/ColorSchemeToggle.tsx';
import { FullPageLoader } from '../components/FullPageLoader.tsx';

export function PublicLayout() {
  return (
    <Box mih="100vh" bg="var(--mantine-color-body)">
      <Group component="header" justify="space-between" px="md" h={56}>
        <Anchor href="/" fw={800} size="lg" underline="never" c="inherit">
          Quire
        </Anchor>
        <ColorSchemeToggle />
      </Group>
      <Container component="main" size={440} py="xl">
        <Suspense fallback={<FullPageLoader />}>
          <Outlet />
        </Suspense>
      </Container>
    </Box>
  );
}
