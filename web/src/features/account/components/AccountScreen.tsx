// `/account`: who you are, your password, where you are signed in, the single sign-on
// providers your account is linked to, and your API tokens.
import { Container, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useSession } from '../../auth/queries/authState.ts';
import { PasswordSection } from './PasswordSection.tsx';
import { SessionsSection } from './SessionsSection.tsx';
import { SsoSection } from './SsoSection.tsx';
import { TokensSection } from './TokensSection.tsx';

export function AccountScreen() {
  useDocumentTitle('Account · Quire');
  const { user } = useSession();
  return (
    <Container size="md" py="xl">
      <Stack gap="xl">
        <div>
          <Title order={1} size="h2">
            Account
          </Title>
          <Text mt="xs">
            {user.displayName}
            {user.email && (
              <Text span c="dimmed">
                {' '}
                · {user.email}
              </Text>
            )}
          </Text>
        </div>
        <PasswordSection />
        <SessionsSection />
        <SsoSection />
        <TokensSection />
      </Stack>
    </Container>
  );
}
