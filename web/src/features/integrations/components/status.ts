import type { Installation } from '../api/integrations.ts';

export const statusLabel = (status: Installation['status']) =>
  ({ active: 'Active', pending: 'Needs its settings', paused: 'Paused' })[status] ?? status;
