// Answers that hold a revision's whole page tree, written out as UTF-8 in pieces. A page
// list of 5,000 pages is 2.6 MB of JSON. V8 builds JSON.stringify's text of it as a chain
// of parts, and writing that out (its byte length for the header, then its UTF-8 on the
// socket) first copies the chain into one string over 128 KB, which V8 places in its
// large-object space at ~8 ms a copy, then encodes it at ~300 MB/s: 16 of the list's
// 30 ms. Pieces of a few dozen pages stay in V8's ordinary heap, and TextEncoder
// encodes them at several GB/s: the same bytes in 8 ms instead of 18.

/** Pages serialized in one JSON.stringify: ~33 KB of JSON, well under V8's 128 KB for an ordinary string. */
const PAGES_PER_PIECE = 64;
/** Text gathered before it is encoded: each chunk is one flat string in the ordinary heap. */
const CHARS_PER_CHUNK = 32_768;

interface PageLike {
  pages: PageLike[];
}

const hasPages = (value: unknown): value is PageLike =>
  typeof value === 'object' && value !== null && Array.isArray((value as PageLike).pages);

const encoder = new TextEncoder();

class Utf8Chunks {
  private readonly chunks: Uint8Array[] = [];
  private parts: string[] = [];
  private length = 0;

  write(text: string): void {
    this.parts.push(text);
    this.length += text.length;
    if (this.length >= CHARS_PER_CHUNK) this.flush();
  }

  finish(): Buffer {
    this.flush();
    return Buffer.concat(this.chunks);
  }

  private flush(): void {
    if (this.parts.length === 0) return;
    this.chunks.push(encoder.encode(this.parts.join('')));
    this.parts = [];
    this.length = 0;
  }
}

/** Each page's count of pages, itself and those under it. */
function weigh(pages: PageLike[], weights: Map<PageLike, number>): number {
  let total = 0;
  for (const page of pages) {
    const weight = 1 + (hasPages(page) ? weigh(page.pages, weights) : 0);
    weights.set(page, weight);
    total += weight;
  }
  return total;
}

function writePages(pages: PageLike[], out: Utf8Chunks, weights: Map<PageLike, number>): void {
  out.write('[');
  let written = 0;
  let batch: PageLike[] = [];
  let batchWeight = 0;
  const separate = () => written++ > 0 && out.write(',');
  const writeBatch = () => {
    if (batch.length === 0) return;
    separate();
    out.write(JSON.stringify(batch).slice(1, -1));
    batch = [];
    batchWeight = 0;
  };
  for (const page of pages) {
    const weight = weights.get(page)!;
    if (weight > PAGES_PER_PIECE) {
      writeBatch();
      separate();
      writeWithPages(page, out, weights);
      continue;
    }
    if (batchWeight + weight > PAGES_PER_PIECE) writeBatch();
    batch.push(page);
    batchWeight += weight;
  }
  writeBatch();
  out.write(']');
}

/** An object whose `pages` are written piece by piece: its other fields first, then its pages. */
function writeWithPages(value: PageLike, out: Utf8Chunks, weights: Map<PageLike, number>): void {
  const { pages, ...fields } = value;
  const text = JSON.stringify(fields);
  out.write(text.slice(0, -1));
  out.write(text.length > 2 ? ',"pages":' : '"pages":');
  writePages(pages, out, weights);
  out.write('}');
}

/**
 * The JSON of an answer holding nested pages (a page list, a revision), as UTF-8: the
 * same value as JSON.stringify's, with the fields of a page holding many sub-pages
 * written before its `pages`. Any other answer is JSON.stringify's.
 */
export function pageTreeJson(answer: unknown): string | Buffer {
  if (!hasPages(answer)) return JSON.stringify(answer);
  const weights = new Map<PageLike, number>();
  if (weigh(answer.pages, weights) <= PAGES_PER_PIECE) return JSON.stringify(answer);
  const out = new Utf8Chunks();
  writeWithPages(answer, out, weights);
  return out.finish();
}
