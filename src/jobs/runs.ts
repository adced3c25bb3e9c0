// The job runs a process has started, so that a graceful stop can wait for them. Apart
// from the queue so that the service context (services/context.ts), which holds them,
// does not import the queue that takes it.

/**
 * The job runs this process has started, from the claim to the row's last write (and the
 * start's queueing of its recurring jobs). A graceful stop waits for them before the
 * database closes: a run the sandbox refused as it stopped must have put its job back
 * untried, or the job would read as run once (leased, an attempt counted) though its
 * work never began.
 */
export class JobRuns {
  private readonly running = new Set<Promise<unknown>>();

  run<T>(work: () => Promise<T>): Promise<T> {
    const running = work();
    this.running.add(running);
    const forget = () => this.running.delete(running);
    running.then(forget, forget);
    return running;
  }

  /** Resolves once no run is left, counting runs started meanwhile. */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }
}
