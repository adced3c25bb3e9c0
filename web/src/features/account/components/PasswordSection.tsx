import { Button, Group, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { formValues } from '../../../components/formValues.ts';
import { changePassword } from '../api/account.ts';

export function PasswordSection() {
  const changing = useMutation({ mutationFn: changePassword });
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="password-title">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const form = event.currentTarget;
          const { currentPassword, password } = formValues(form);
          changing.mutate({ ...(currentPassword ? { currentPassword } : {}), password }, { onSuccess: () => form.reset() });
        }}
      >
        <Stack>
          <Title order={2} size="h3" id="password-title">
            Password
          </Title>
          <ErrorAlert error={changing.error} />
          {changing.isSuccess && (
            <Text role="status" c="green.8" size="sm">
              Your password is changed.
            </Text>
          )}
          <PasswordInput name="currentPassword" label="Current password" description="Leave empty if you have none yet" autoComplete="current-password" />
          <PasswordInput name="password" label="New password" description="At least 8 characters" required minLength={8} autoComplete="new-password" />
          <Group>
            <Button type="submit" loading={changing.isPending}>
              Change password
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
