import { Badge } from '@mantine/core';
import type { ChangeRequestStatus } from '../api/changeRequests.ts';

// Filled badges: the light variants fall below AA contrast (axe-core).
const COLORS: Record<ChangeRequestStatus, string> = { open: '#1e6b34', draft: 'gray.7', merged: 'violet.9', archived: 'dark.4' };
export const STATUS_LABELS: Record<ChangeRequestStatus, string> = { open: 'Open', draft: 'Draft', merged: 'Merged', archived: 'Archived' };

export function StatusBadge({ status }: { status: ChangeRequestStatus }) {
  return (
    <Badge color={COLORS[status]} variant="filled" style={{ flex: 'none' }}>
      {STATUS_LABELS[status]}
    </Badge>
  );
}
