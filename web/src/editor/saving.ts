// Saves a page's document into its change request as the writer types: a while after
// the last change (debounced), one save at a time, and never a document the change
// request already holds (a page opened and left unedited is not written). When the tab
// hides or closes, what is waiting goes at once with fetch's keepalive, which outlives
// the page; so nothing typed is lost once the status said "Saved" or while it says "Saving…".
import type { JSONDocument } from '../../../src/content/gitbook/model.ts';
import { ApiError } from '../api/client.ts';

export type SaveStatus = { state: 'saved' } | { state: 'saving' } | { state: 'failed'; message: string };

export interface SaverOptions {
  /** `/v1/spaces/…/change-requests/…/content`. */
  url: string;
  pageId: string;
  csrfToken: string;
  /** The document the change request holds now, as the API gave it. */
  initial: JSONDocument;
  onStatus: (status: SaveStatus) => void;
  delay?: number;
}

// Browsers refuse a keepalive request whose body is larger (the Fetch standard's quota).
const KEEPALIVE_LIMIT = 60_000;

export class Saver {
  private saved: string;
  private pending: JSONDocument | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly options: SaverOptions) {
    this.saved = JSON.stringify(options.initial);
  }

  /** The editor's document changed: save it a while after the last change. */
  change(document: JSONDocument): void {
    this.pending = document;
    clearTimeout(this.timer);
    if (JSON.stringify(document) === this.saved && !this.running) {
      this.pending = undefined;
      this.options.onStatus({ state: 'saved' });
      return;
    }
    this.options.onStatus({ state: 'saving' });
    this.timer = setTimeout(() => void this.save(), this.options.delay ?? 800);
  }

  /** Saves what is waiting now, and resolves when all is saved (or failed). */
  async save(): Promise<void> {
    clearTimeout(this.timer);
    while (this.running) await this.running;
    const document = this.pending;
    this.pending = undefined;
    if (!document) return;
    const body = JSON.stringify(document);
    if (body === this.saved) {
      this.options.onStatus({ state: 'saved' });
      return;
    }
    this.running = this.send(document, body, false).finally(() => (this.running = undefined));
    await this.running;
    if (this.pending) await this.save();
  }

  /** The page is going away: send what waits with keepalive, without waiting for the answer. */
  flush(): void {
    clearTimeout(this.timer);
    const document = this.pending;
    if (!document) return;
    const body = JSON.stringify(document);
    if (body === this.saved) return;
    this.pending = undefined;
    void this.send(document, body, true);
  }

  private async send(document: JSONDocument, body: string, leaving: boolean): Promise<void> {
    const payload = JSON.stringify({ changes: [{ operation: 'update_page', page: this.options.pageId, document: { document } }] });
    try {
      const response = await fetch(this.options.url, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/json', 'x-csrf-token': this.options.csrfToken },
        credentials: 'same-origin',
        body: payload,
        keepalive: leaving && payload.length < KEEPALIVE_LIMIT,
      });
      if (!response.ok) {
        const answer = (await response.json().catch(() => undefined)) as { error?: { message?: string } } | undefined;
        throw new ApiError(response.status, answer?.error?.message ?? `Quire refused the save (error ${response.status}).`);
      }
      this.saved = body;
      if (!this.pending) this.options.onStatus({ state: 'saved' });
    } catch (error) {
      // Kept to be sent again with the next change or the Retry button.
      this.pending ??= document;
      const message = error instanceof ApiError ? error.message : 'Quire could not be reached. Check your connection; your changes are kept here.';
      this.options.onStatus({ state: 'failed', message });
    }
  }

  /** Whether something typed is not saved yet. */
  get dirty(): boolean {
    return this.pending !== undefined || this.running !== undefined;
  }

  dispose(): void {
    clearTimeout(this.timer);
  }
}
