// A forgotten password: the server e-mails a one-time sign-in link, and says the same whether or not the address has an account.
import { Button, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { formValues } from '../../../components/formValues.ts';
import { requestPasswordReset } from '../api/auth.ts';

export function PasswordResetForm() {
  const resetting = useMutation({ mutationFn: requestPasswordReset });
  if (resetting.isSuccess) {
    return (
      <Text role="status">
        Check your mail: if an account has this address, a sign-in link is on its way. It works once, within an hour. No mail? An administrator can make you a link with
        <code> quire admin sign-in-link</code>.
      </Text>
    );
  }
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        resetting.mutate(formValues(event.currentTarget).email);
      }}
    >
      <Stack>
        <ErrorAlert error={resetting.error} />
        <TextInput name="email" label="Email" type="email" required autoComplete="username" autoFocus />
        <Button type="submit" loading={resetting.isPending}>
          Send me a sign-in link
        </Button>
      </Stack>
    </form>
  );
}
