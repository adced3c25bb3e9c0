// Every kind of durable job and the function that runs it.
import { PURGE_SPACE_JOB, purgeDeletedSpace } from '../services/spaces.ts';
import type { JobHandler } from './queue.ts';

export const jobHandlers: Record<string, JobHandler> = {
  [PURGE_SPACE_JOB]: purgeDeletedSpace,
};
