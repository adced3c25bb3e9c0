// The CPU-heavy, pure work Quire runs on worker threads (see pool.ts): each task takes
// and answers plain data (structured-clonable), and knows neither HTTP nor SQL.
import type { MessagePort } from 'node:worker_threads';
import { deflateSync } from 'node:zlib';
import {
  documentToMarkdown,
  linkResolverFor,
  linksAsWritten,
  linkWriterFor,
  markdownToDocument,
  withConditionsDecided,
  withIncludedBlocks,
  type JSONDocument,
  type NamedFile,
} from '../content/document.ts';
import { conditionHolds } from '../lib/conditions.ts';
import { linksOf } from '../content/links.ts';
import { mergeText } from '../content/merge.ts';
import { parseOpenApiText } from '../content/openapi.ts';
import { writePdf } from '../content/pdf.ts';
import { sectionsOf } from '../content/search.ts';
import type { FlatTree } from '../content/tree.ts';

/** The PDF's bytes go to the request thread in messages of about this size. */
const PDF_MESSAGE_BYTES = 64 * 1024;

export interface PdfTask {
  pages: Array<{ id: string; title: string; markdown: string }>;
  /** The markdown of the reusable contents the pages include, by id. */
  reusables: Map<string, string>;
  /** The revision's tree and files, for the links between its pages and to its images. */
  tree: FlatTree;
  files: NamedFile[];
  /** Image bytes by file id. */
  images: Map<string, Uint8Array>;
  /** Receives the PDF's bytes in chunks as they are made, then null. */
  port: MessagePort;
}

/** A document as the markdown Quire stores: its pages linked by id, every other link as written. */
const storedMarkdownOf = (document: JSONDocument) => documentToMarkdown(document, { link: linkWriterFor(new Map()) });

export const tasks = {
  mergeText: (input: { base: string; ours: string; theirs: string }) => mergeText(input.base, input.ours, input.theirs),
  parseOpenApiText: (input: { text: string }) => parseOpenApiText(input.text) as Record<string, unknown>,
  sectionsOf: (input: { pages: Array<{ markdown: string; title: string }> }) => input.pages.map((page) => sectionsOf(page.markdown, page.title)),
  /** A page's document for readers as JSON, its links as written, and deflated in base64 to store (services/pageDocuments.ts). */
  documentAsWritten: (input: { markdown: string }) => {
    const json = JSON.stringify(markdownToDocument(input.markdown, linksAsWritten));
    return { json, stored: deflateSync(json).toString('base64') };
  },
  /** A JSONDocument sent by a client as the markdown to store, its pages linked by id. */
  documentToMarkdown: (input: { document: JSONDocument }) => storedMarkdownOf(input.document),
  /** Markdown holding forms of GitBook's earlier formats as today's writes it, its links as written. */
  markdownInCurrentForms: (input: { markdown: string }) => storedMarkdownOf(markdownToDocument(input.markdown, linksAsWritten)),
  /** Markdown as a reader with these claims reads it: the conditional blocks decided, the rest written back as it was written. */
  markdownReadBy: (input: { markdown: string; claims: Record<string, unknown> }) =>
    storedMarkdownOf(withConditionsDecided(markdownToDocument(input.markdown, linksAsWritten), (expression) => conditionHolds(expression, input.claims))),
  /** A document's JSON as a reader with these claims reads it: the conditional blocks decided. */
  documentJsonReadBy: (input: { json: string; claims: Record<string, unknown> }) =>
    JSON.stringify(withConditionsDecided(JSON.parse(input.json) as { nodes: unknown[] }, (expression) => conditionHolds(expression, input.claims))),
  linksOf: (input: { pages: Array<{ id: string; markdown: string }>; tree: FlatTree; files: NamedFile[] }) =>
    input.pages.map((page) => linksOf(page.markdown, linkResolverFor(input.tree, page.id, input.files))),
  async pdf(input: PdfTask): Promise<void> {
    const included = new Map([...input.reusables].map(([id, markdown]) => [id, markdownToDocument(markdown, linkResolverFor(input.tree, undefined, input.files)).nodes]));
    const documents = input.pages.map((page) => ({
      title: page.title,
      document: withIncludedBlocks(markdownToDocument(page.markdown, linkResolverFor(input.tree, page.id, input.files)), (id) => included.get(id)),
    }));
    const image = (fileId: string) => {
      const bytes = input.images.get(fileId);
      return bytes ? Buffer.from(bytes) : undefined;
    };
    // pdfkit makes thousands of small chunks; sent one by one, the request thread pays a
    // message for each and the socket a write of thousands of buffers at once.
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const send = () => {
      if (pendingBytes > 0) input.port.postMessage(Buffer.concat(pending, pendingBytes));
      pending = [];
      pendingBytes = 0;
    };
    try {
      await writePdf(documents, image, (chunk) => {
        pending.push(chunk);
        pendingBytes += chunk.length;
        if (pendingBytes >= PDF_MESSAGE_BYTES) send();
      });
      send();
      // Only a whole PDF ends with null; a failure ends the task with its error instead.
      input.port.postMessage(null);
    } finally {
      input.port.close();
    }
  },
};

export type Tasks = typeof tasks;
