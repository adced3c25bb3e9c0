// The port through which integration scripts run: one event in, the script's answer
// out, within limits, and the refusals it answers with. `workerd.ts` is the real one;
// sandbox.ts chooses it, or none and says why.

export interface SandboxLimits {
  /** Wall time for one event, in ms: past it the runtime is restarted, which also stops a script that never yields. */
  wallMs: number;
  /** Heap of each script's isolate, in MB. */
  memoryMb: number;
  /** Outbound requests one event may make. */
  requests: number;
}

export interface ScriptAnswer {
  status: number;
  contentType: string | null;
  /** Where a redirect sends its reader (Response.redirect), as the script gave it. */
  location: string | null;
  body: string;
}

export interface IntegrationSandbox {
  /** Why scripts cannot run here, or undefined when they can. */
  readonly unavailable: string | undefined;
  /** Delivers one event (GitBook's multipart form: event, environment) to a script, identified by `key` (its integration and version). */
  run(script: { key: string; source: string }, form: FormData): Promise<ScriptAnswer>;
  close(): Promise<void>;
}

/** A refusal of the sandbox (a limit reached, no runtime): the delivery's outcome, said in one line. */
export class SandboxRefused extends Error {}

/**
 * A run refused because this process is stopping: the script never saw the event, so
 * it is no attempt. The delivery and its job go back as they were, due at once, for
 * another process or the next start; counted, restarts alone would use up its retries
 * and push each next try further out.
 */
export class SandboxStopping extends SandboxRefused {}
