// Answers that hold a revision's whole page tree, written out as UTF-8 in pieces. A page
// list of 5,000 pages is 2.6 MB of JSON. V8 builds JSON.stringify's text of it as a chain
// of parts, and writing that out (its byte length for the header, then its UTF-8 on the
// socket) first copies the chain into one string over 128 KB, which V8 places in its
// large-object space at ~8 ms a copy, then encodes it at ~300 MB/s: 16 of the list's
// 30 ms. Pieces of a few dozen pages stay in V8's ordinary heap, and TextEncoder
// encodes them at several GB/s: the same bytes in 8 ms instead of 18.

/** Text gathered before it is encoded: each chunk is one flat string in the ordinary heap. */
const CHARS_PER_CHUNK = 32_768;

interface PageLike {
  pages: PageLike[];
}

const encoder = new TextEncoder();

/**
 * Where every answer is encoded before it is copied out at its size: one buffer for the
 * process, reused, since an answer is written in one synchronous call. Encoded into a
 * buffer of its own, each 32 KB chunk was an allocation of its own, and a list of 5,000
 * pages left ~80 of them in the allocator's heap to be freed in pieces among
 * longer-lived memory.
 */
const scratch = Buffer.allocUnsafeSlow(1 << 20);

class Utf8Chunks {
  private readonly filled: Buffer[] = [];
  private used = 0;
  private parts: string[] = [];
  private length = 0;

  write(text: string): void {
    this.parts.push(text);
    this.length += text.length;
    if (this.length >= CHARS_PER_CHUNK) this.flush();
  }

  /** The bytes written, in one buffer of their size. */
  finish(): Buffer {
    this.flush();
    return Buffer.concat([...this.filled, scratch.subarray(0, this.used)]);
  }

  /** The text written, as a string while it is under one chunk, else as UTF-8. */
  finishText(): string | Buffer {
    const encoded = this.used > 0 || this.filled.length > 0;
    return encoded ? this.finish() : this.parts.join('');
  }

  private flush(): void {
    if (this.parts.length === 0) return;
    const text = this.parts.join('');
    this.parts = [];
    this.length = 0;
    // UTF-8 takes at most 3 bytes for each UTF-16 unit.
    const most = text.length * 3;
    if (scratch.length - this.used < most) {
      if (this.used > 0) this.filled.push(Buffer.from(scratch.subarray(0, this.used)));
      this.used = 0;
      // A piece larger than the buffer (one field of many files, one huge title) is encoded on its own.
      if (most > scratch.length) {
        this.filled.push(Buffer.from(text, 'utf8'));
        return;
      }
    }
    this.used += encoder.encodeInto(text, scratch.subarray(this.used)).written;
  }
}

/** Where a page's empty list of sub-pages sits in its JSON: JSON.stringify escapes every quote inside a string, so this text is the key's. */
const EMPTY_SUB_PAGES = '"pages":[]';

/**
 * A page list's JSON, `{"pages":[…]}`: JSON.stringify's text of the list presented
 * whole, but presented one page at a time as it is written: `present` gives a page with
 * an empty `pages`, where its sub-pages are then written. Presented whole, the list of
 * a 5,000-page space was ~15 MB of objects alive together while it was written, which
 * V8 moved out of its young generation, so every list read grew the old one; page by
 * page, a few objects at a time are alive, and each page keeps JSON.stringify's order
 * of fields.
 */
export function pageListAnswerJson<Page>(top: readonly Page[], subPagesOf: (page: Page) => readonly Page[], present: (page: Page) => PageLike): string | Buffer {
  const out = new Utf8Chunks();
  const writeList = (pages: readonly Page[]) => {
    out.write('[');
    pages.forEach((page, index) => {
      if (index > 0) out.write(',');
      const text = JSON.stringify(present(page));
      const subPages = subPagesOf(page);
      if (subPages.length === 0) {
        out.write(text);
        return;
      }
      const key = text.indexOf(EMPTY_SUB_PAGES);
      if (key < 0) throw new Error('a page with sub-pages was presented without an empty "pages"');
      const at = key + EMPTY_SUB_PAGES.length - 2;
      out.write(text.slice(0, at));
      writeList(subPages);
      out.write(text.slice(at + 2));
    });
    out.write(']');
  };
  out.write('{"pages":');
  writeList(top);
  out.write('}');
  return out.finishText();
}
