import { Center, Loader, VisuallyHidden } from '@mantine/core';

/** While the first answer a screen needs is on its way; announced, as a status, in words. */
export function FullPageLoader() {
  return (
    <Center h="60vh" role="status">
      <Loader aria-hidden="true" />
      <VisuallyHidden>Loading…</VisuallyHidden>
    </Center>
  );
}
