// Git Sync: the repository (URL with credentials when it needs them, branch, project
// folder), the state of the last import or export while it runs, merges waiting to be
// exported, and the last failure, in the server's words.
import { Alert, Badge, Button, Code, Group, Loader, Paper, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { formValues } from '../../../components/formValues.ts';
import { shownDate } from '../../account/components/dates.ts';
import { ConfirmButton } from '../../settings/components/ConfirmButton.tsx';
import type { GitOperation, GitSyncState } from '../api/gitSync.ts';
import { useDisconnect, useExport, useGitInfo, useImport } from '../queries/gitSync.ts';
import { TONES } from '../../settings/components/tones.ts';

/** "refs/heads/main" as people name it, and back. */
const branchOf = (ref: string) => ref.replace(/^refs\/heads\//, '');
const refOf = (branch: string) => (branch.startsWith('refs/') ? branch : `refs/heads/${branch}`);

export function GitSyncSection({ spaceId }: { spaceId: string }) {
  const { data: state, error, isPending } = useGitInfo(spaceId, true);
  const importing = useImport(spaceId);
  const exporting = useExport(spaceId);
  const disconnecting = useDisconnect(spaceId);
  const running = state?.operation.state === 'running' || importing.isPending || exporting.isPending;
  if (isPending) return <Loader aria-label="Loading the Git Sync settings" />;
  return (
    <Stack gap="lg">
      <ErrorAlert error={error ?? importing.error ?? exporting.error ?? disconnecting.error} />
      {state && <SyncState state={state} />}
      <Paper withBorder p="lg" component="section" aria-labelledby="git-sync-title">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            const values = formValues(event.currentTarget);
            const direction = (event.nativeEvent as SubmitEvent).submitter?.getAttribute('value');
            const body: GitOperation = {
              ...(values.url ? { url: values.url } : {}),
              ref: refOf(values.branch || 'main'),
              ...(values.folder ? { repoProjectDirectory: values.folder } : {}),
              ...(values.force === 'on' ? { force: true } : {}),
            };
            if (direction === 'import') importing.mutate(body);
            else exporting.mutate({ ...body, commitMessage: values.message || 'Export from Quire' });
          }}
        >
          <Stack>
            <Title order={2} size="h3" id="git-sync-title">
              Git Sync
            </Title>
            <Text size="sm" c="dimmed">
              Import the space from a git repository, or export it to one. After an export, each merge into the space is committed to the branch; a push webhook imports the repository's commits.
            </Text>
            <TextInput
              name="url"
              label="Repository URL"
              description={
                state?.connected
                  ? `Leave it empty to use ${state.repoName}, whose credentials Quire keeps`
                  : 'Over HTTPS; with a token when it needs one: https://user:token@git.example.com/team/docs.git'
              }
              type="url"
              required={!state?.connected}
            />
            <Group grow align="flex-start">
              <TextInput name="branch" label="Branch" defaultValue={state ? branchOf(state.ref) : 'main'} required />
              <TextInput name="folder" label="Project folder" description="Where the docs are in the repository; empty for its root" defaultValue={state?.repoProjectDirectory ?? ''} />
            </Group>
            <TextInput name="message" label="Commit message" description="For an export" defaultValue="Export from Quire" maxLength={10000} />
            <Switch name="force" label="Force: an import's repository wins over changes made in the space; an export's space overwrites the repository's changes" />
            <Group>
              <Button type="submit" value="import" loading={importing.isPending || (running && state?.operation.direction === 'import')} disabled={running}>
                Import from the repository
              </Button>
              <Button type="submit" value="export" variant="default" loading={exporting.isPending || (running && state?.operation.direction === 'export')} disabled={running}>
                Export to the repository
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
      {state && (
        <Group>
          <ConfirmButton label="Disconnect the repository" confirmLabel="Disconnect" onConfirm={() => disconnecting.mutate(undefined)}>
            Disconnect the repository
          </ConfirmButton>
        </Group>
      )}
    </Stack>
  );
}

function SyncState({ state }: { state: GitSyncState }) {
  const { operation } = state;
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="git-state-title">
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={2} size="h3" id="git-state-title">
            {state.repoName}
          </Title>
          <Badge variant="outline" color={state.connected ? TONES.success : 'gray'}>
            {state.connected ? 'Connected' : 'Not connected'}
          </Badge>
        </Group>
        <Text size="sm">
          Branch <Code>{branchOf(state.ref)}</Code>
          {state.repoProjectDirectory ? (
            <>
              {' '}
              · folder <Code>{state.repoProjectDirectory}</Code>
            </>
          ) : null}
          {state.commit ? (
            <>
              {' '}
              · in sync with <Code>{state.commit.slice(0, 10)}</Code>
            </>
          ) : null}
        </Text>
        <Text size="sm" role="status" aria-live="polite">
          {operation.state === 'running' && (
            <>
              <Loader size="xs" mr="xs" aria-hidden="true" />
              {operation.direction === 'import' ? 'Importing' : 'Exporting'} since {shownDate(operation.startedAt)}…
            </>
          )}
          {operation.state === 'success' && `Last ${operation.direction} succeeded ${shownDate(operation.endedAt)}.`}
          {operation.state === 'failure' && `Last ${operation.direction} failed ${shownDate(operation.endedAt)}.`}
        </Text>
        {operation.error && (
          <Alert color={TONES.danger} variant="outline" title={`Why the ${operation.direction} failed`}>
            {operation.error}
          </Alert>
        )}
        {operation.warnings.length > 0 && (
          <Alert color={TONES.notice} variant="outline" title="Warnings">
            {operation.warnings.join(' · ')}
          </Alert>
        )}
        <Text size="sm">
          {state.exportsChanges ? 'Each merge is exported as a commit.' : 'Merges are not exported.'}{' '}
          {state.pendingExports > 0 && `${state.pendingExports} ${state.pendingExports === 1 ? 'merge waits' : 'merges wait'} to be exported.`}
        </Text>
        {state.lastFailure && state.lastFailure.error !== operation.error && (
          <Alert color={TONES.danger} variant="outline" title={`Last failure, ${shownDate(state.lastFailure.at)}`}>
            {state.lastFailure.error}
          </Alert>
        )}
        {state.webhook && (
          <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
            Push webhook: <Code>{state.webhook.url}</Code>, with its secret <Code>{state.webhook.secret}</Code>
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
