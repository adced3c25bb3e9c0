// Single sign-on: the organizations whose identity providers serve the person's e-mail domain.
import { Button, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { formValues } from '../../../components/formValues.ts';
import { ssoOptions } from '../api/auth.ts';

export function SsoForm() {
  const finding = useMutation({ mutationFn: (email: string) => ssoOptions(email) });
  return (
    <Stack>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          finding.mutate(formValues(event.currentTarget).email);
        }}
      >
        <Stack>
          <TextInput name="email" label="Email" type="email" required autoComplete="username" autoFocus />
          <Button type="submit" loading={finding.isPending}>
            Find my sign-on
          </Button>
        </Stack>
      </form>
      <ErrorAlert error={finding.error} />
      {finding.data &&
        (finding.data.items.length === 0 ? (
          <Text size="sm" role="status">
            No single sign-on is set up for this address. Sign in with your password, or ask an administrator.
          </Text>
        ) : (
          finding.data.items.map((option) => (
            <Button key={option.startUrl} component="a" href={option.startUrl} variant="default">
              {option.organization.title}: {option.label}
            </Button>
          ))
        ))}
    </Stack>
  );
}
