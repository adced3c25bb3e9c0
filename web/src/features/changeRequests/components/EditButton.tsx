// Edit on a page: opens the person's own change request (or a new one) at the page, in
// the editor. Shown only to those the space lets edit; the API refuses the others anyway.
import { Button, Stack } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { useSession } from '../../auth/queries/authState.ts';
import { openOwnChangeRequest } from '../api/changeRequests.ts';

export function EditButton({ spaceId, pagePath }: { spaceId: string; pagePath: string }) {
  const session = useSession();
  const navigate = useNavigate();
  const open = useMutation({
    mutationFn: () => openOwnChangeRequest(spaceId, session.user.id),
    onSuccess: (changeRequest) => navigate(`/s/${spaceId}/~/changes/${changeRequest.number}/${pagePath}?edit`),
  });
  return (
    <Stack gap="xs" align="flex-end">
      <Button size="xs" loading={open.isPending} onClick={() => open.mutate()} style={{ flex: 'none' }}>
        Edit
      </Button>
      <ErrorAlert error={open.error} />
    </Stack>
  );
}
