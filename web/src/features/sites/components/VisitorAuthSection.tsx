// A visitor-auth site's settings: who signs readers in (the organization's own service,
// or the visitor authentication integration installed on the site), the key their
// tokens are signed with (masked, to copy, or regenerated to refuse every token signed
// before), where a visitor without a valid token is sent, and the sign-out the site's
// pages link to.
import { Button, Code, CopyButton, Group, Paper, Radio, Stack, Text, TextInput, Title } from '@mantine/core';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { formValues } from '../../../components/formValues.ts';
import { ConfirmButton } from '../../settings/components/ConfirmButton.tsx';
import { regeneratePublishingAuth, updatePublishingAuth, type PublishingAuth, type Site } from '../api/sites.ts';
import { usePublishingAuth, useSiteMutation } from '../queries/sites.ts';

export function VisitorAuthSection({ organizationId, site }: { organizationId: string; site: Site }) {
  const { data: auth, error } = usePublishingAuth(organizationId, site.id, true);
  const regenerating = useSiteMutation(organizationId, () => regeneratePublishingAuth(organizationId, site.id));
  const choosing = useSiteMutation(organizationId, (backend: PublishingAuth['backend']) => updatePublishingAuth(organizationId, site.id, { backend }));
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="visitor-auth-title">
      <Stack>
        <Title order={2} size="h3" id="visitor-auth-title">
          Visitor authentication
        </Title>
        <Text size="sm">
          A reader is signed in, then sent to the site with a token: a JWT signed with this key (HS256), as <Code>?jwt_token=…</Code>. Its claims decide
          which conditional sections and variants they see. Keep the key secret.
        </Text>
        <ErrorAlert error={error ?? regenerating.error ?? choosing.error} />
        {auth && (
          <>
            <Radio.Group
              label="Who signs readers in"
              description={
                auth.integration
                  ? undefined
                  : 'To have an integration sign them in (Auth0, Okta, Azure AD…), install a visitor authentication integration on this site.'
              }
              value={auth.backend}
              onChange={(backend) => choosing.mutate(backend as PublishingAuth['backend'])}
            >
              <Stack gap="xs" mt="xs">
                <Radio value="custom" label="Your own service, which signs the tokens with the key below" />
                <Radio value="integration" disabled={!auth.integration} label={auth.integration ? `The integration ${auth.integration}, installed on this site` : 'An integration installed on this site'} />
              </Stack>
            </Radio.Group>
            <Group gap="xs" wrap="wrap">
              <TextInput readOnly size="xs" type="password" value={auth.privateKey} aria-label="Signing key" style={{ flex: '1 1 12rem', minWidth: 0 }} />
              <CopyButton value={auth.privateKey}>
                {({ copied, copy }) => (
                  <Button size="xs" onClick={copy}>
                    {copied ? 'Copied' : 'Copy the key'}
                  </Button>
                )}
              </CopyButton>
              <ConfirmButton label="Regenerate the key for visitor tokens" confirmLabel="Refuse old tokens" onConfirm={() => regenerating.mutate(undefined)} loading={regenerating.isPending}>
                Regenerate
              </ConfirmButton>
            </Group>
            {regenerating.isSuccess && (
              <Text size="sm" role="status">
                A new key signs visitors' tokens now; tokens signed with the old one are refused.
              </Text>
            )}
            {auth.backend === 'integration' && (
              <Text size="sm">
                A reader without a valid token is sent to {auth.integration} to sign in; it sends them back to the page they asked for with a token signed
                with this key.
              </Text>
            )}
            <VisitorUrls organizationId={organizationId} site={site} auth={auth} />
          </>
        )}
      </Stack>
    </Paper>
  );
}

function VisitorUrls({ organizationId, site, auth }: { organizationId: string; site: Site; auth: PublishingAuth }) {
  const saving = useSiteMutation(organizationId, (body: { fallbackURL: string | null; logoutURL: string | null }) => updatePublishingAuth(organizationId, site.id, { backend: auth.backend, ...body }));
  return (
    <form
      // Remounted with the stored values after each save, so that the fields show what the site keeps.
      key={`${auth.fallbackURL ?? ''}\n${auth.logoutURL ?? ''}`}
      onSubmit={(event) => {
        event.preventDefault();
        const { fallbackURL, logoutURL } = formValues(event.currentTarget);
        saving.mutate({ fallbackURL: fallbackURL.trim() || null, logoutURL: logoutURL.trim() || null });
      }}
    >
      <Stack gap="sm">
        <ErrorAlert error={saving.error} />
        <TextInput
          name="fallbackURL"
          type="url"
          label="Fallback URL"
          description="Where a visitor without a valid token is sent: your sign-in, which sends them back with one. The page they asked for is added as ?location=. Empty: they are told the site does not exist."
          placeholder="https://example.com/login"
          defaultValue={auth.fallbackURL ?? ''}
          maxLength={2048}
        />
        <TextInput
          name="logoutURL"
          type="url"
          label="Logout URL"
          description="Your service's sign-out: the site's pages link to it as Sign out. Empty: no such link."
          placeholder="https://example.com/logout"
          defaultValue={auth.logoutURL ?? ''}
          maxLength={2048}
        />
        <Group>
          <Button type="submit" loading={saving.isPending}>
            Save the URLs
          </Button>
          {saving.isSuccess && (
            <Text size="sm" role="status">
              Saved.
            </Text>
          )}
        </Group>
      </Stack>
    </form>
  );
}
