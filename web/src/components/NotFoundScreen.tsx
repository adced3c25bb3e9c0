import { Anchor, Container, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { Link } from 'react-router';

export function NotFoundScreen() {
  useDocumentTitle('Not found · Quire');
  return (
    <Container size="sm" py="xl">
      <Title order={1} size="h2">
        Nothing here
      </Title>
      <Text mt="sm">
        This address is not a screen of Quire. Check the link, or go to the{' '}
        <Anchor component={Link} to="/">
          start
        </Anchor>
        .
      </Text>
    </Container>
  );
}
