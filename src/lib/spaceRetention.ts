// How long a deleted space stays in the trash before the purge job removes it.
export const RETENTION_DAYS = 7;
export const RETENTION_MS = RETENTION_DAYS * 24 * 60 * 60 * 1000;

/** When a space deleted at `deletedAt` (ISO) is purged, as an ISO date. */
export function purgeDate(deletedAt: string): string {
  return new Date(Date.parse(deletedAt) + RETENTION_MS).toISOString();
}
