// Saves a page's document (or a reusable content's) into its change request as the writer types: a while after
// the last change (debounced), one save at a time, and never a document the change
// request already holds (a page opened and left unedited is not written). When the tab
// hides or closes, what is waiting goes at once with fetch's keepalive, which outlives
// the page; so nothing typed is lost once the status said "Saved" or while it says "Saving…".
// A change hands over how to read the document, not the document: reading it (the
// editor's whole state to GitBook's JSON, then to text) takes tens of milliseconds on a
// page of thousands of blocks, too long for every key (bench/editor-browser.ts), so it
// is done once, when the save is due or the page goes away.
import type { JSONDocument } from '../../../src/content/gitbook/model.ts';
import { ApiError } from '../api/client.ts';

/** What the editor writes in: a page of the change request, or one of its reusable contents (the blocks pages include). */
export type WritingTarget = { kind: 'page'; id: string } | { kind: 'reusableContent'; id: string };

export type SaveStatus = { state: 'saved' } | { state: 'saving' } | { state: 'failed'; message: string };

export interface SaverOptions {
  /** `/v1/spaces/…/change-requests/…/content`. */
  url: string;
  target: WritingTarget;
  csrfToken: string;
  /** The document the change request holds now, as the API gave it. */
  initial: JSONDocument;
  onStatus: (status: SaveStatus) => void;
  /** The change request took a save. */
  onWritten?: () => void;
  delay?: number;
}

// Browsers refuse a keepalive request whose body is larger (the Fetch standard's quota).
const KEEPALIVE_LIMIT = 60_000;

/** Saves sent and not answered yet, by change request and page (or reusable content), across editors: one closed may still be saving. */
const sending = new Map<string, Promise<void>>();

/** Resolves once no save of the page (or reusable content) `id` is under way (answered or failed). */
export async function savesUnderWay(url: string, id: string): Promise<void> {
  for (let underWay = sending.get(`${url} ${id}`); underWay; underWay = sending.get(`${url} ${id}`)) await underWay;
}

export class Saver {
  /** The text of the document the change request holds, made when first compared (a page of thousands of blocks is megabytes of it). */
  private savedText: string | undefined;
  /** How to read the document changed since the last save: the editor's state at the last change, converted only when sent. */
  private pending: (() => JSONDocument) | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<void> | undefined;
  private status: SaveStatus = { state: 'saved' };

  constructor(private readonly options: SaverOptions) {}

  private get saved(): string {
    return (this.savedText ??= JSON.stringify(this.options.initial));
  }

  /** Says the status when it changes: each key says "saving", and redrawing the editor's screen for each would cost every key. */
  private report(status: SaveStatus): void {
    const message = (of: SaveStatus) => (of.state === 'failed' ? of.message : undefined);
    if (status.state === this.status.state && message(status) === message(this.status)) return;
    this.status = status;
    this.options.onStatus(status);
  }

  /** The editor's document changed: save it a while after the last change. `read` answers the document as it is after this change. */
  change(read: () => JSONDocument): void {
    this.pending = read;
    clearTimeout(this.timer);
    this.report({ state: 'saving' });
    this.timer = setTimeout(() => void this.save(), this.options.delay ?? 800);
  }

  /** Saves what is waiting now, and resolves when all is saved (or failed). */
  async save(): Promise<void> {
    clearTimeout(this.timer);
    while (this.running) await this.running;
    const read = this.pending;
    this.pending = undefined;
    if (!read) return;
    const document = read();
    const body = JSON.stringify(document);
    // Changed and changed back (typed, then undone): the change request holds it already.
    if (body === this.saved) {
      this.report({ state: 'saved' });
      return;
    }
    this.running = this.send(document, body, false).finally(() => (this.running = undefined));
    await this.running;
    if (this.pending) await this.save();
  }

  /** The page is going away: send what waits with keepalive, without waiting for the answer. */
  flush(): void {
    clearTimeout(this.timer);
    const read = this.pending;
    if (!read) return;
    const document = read();
    const body = JSON.stringify(document);
    this.pending = undefined;
    if (body === this.saved) return;
    void this.send(document, body, true);
  }

  private send(document: JSONDocument, body: string, leaving: boolean): Promise<void> {
    const key = `${this.options.url} ${this.options.target.id}`;
    const sent = this.sendNow(document, body, leaving).finally(() => sending.get(key) === sent && sending.delete(key));
    sending.set(key, sent);
    return sent;
  }

  private async sendNow(document: JSONDocument, body: string, leaving: boolean): Promise<void> {
    // The document's text is made once (a page of thousands of blocks is megabytes of it) and put into the request as it is.
    const { target } = this.options;
    const operation = target.kind === 'page' ? `"operation":"update_page","page":${JSON.stringify(target.id)}` : `"operation":"update_reusable_content","reusableContent":${JSON.stringify(target.id)}`;
    const payload = `{"changes":[{${operation},"document":{"document":${body}}}]}`;
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
      this.savedText = body;
      this.options.onWritten?.();
      if (!this.pending) this.report({ state: 'saved' });
    } catch (error) {
      // Kept to be sent again with the next change or the Retry button.
      this.pending ??= () => document;
      const message = error instanceof ApiError ? error.message : 'Quire could not be reached. Check your connection; your changes are kept here.';
      this.report({ state: 'failed', message });
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
