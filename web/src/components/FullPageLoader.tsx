import { Center, Loader } from '@mantine/core';

/** While the first answer a screen needs is on its way. */
export function FullPageLoader() {
  return (
    <Center h="60vh">
      <Loader aria-label="Loading" />
    </Center>
  );
}
