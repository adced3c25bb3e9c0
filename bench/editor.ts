// The editor's mapping in Node: a 100 KB JSONDocument (the GitBook corpus pages of
// test/fixtures/gitbook, repeated, as the API serves them) to ProseMirror and back,
// each way as JSON and as a checked ProseMirror node, beside the baseline of copying
// the same document through JSON.stringify and JSON.parse in the same run. Target
// (issue 74): < 20 ms each way.
import { readdirSync, readFileSync } from 'node:fs';
import { linksAsWritten, markdownToDocument, withKeys } from '../src/content/document.ts';
import type { JSONDocument } from '../src/content/gitbook/model.ts';
import { nodeToDocument, proseMirrorToDocument } from '../src/content/editor/toDocument.ts';
import { documentToNode, documentToProseMirror } from '../src/content/editor/toProseMirror.ts';
import { medianMilliseconds } from './support.ts';

export interface EditorResult {
  /** The document's size as JSON, and its nodes. */
  bytes: number;
  blocks: number;
  /** Median milliseconds. */
  toJsonMs: number;
  toNodeMs: number;
  fromJsonMs: number;
  fromNodeMs: number;
  baselineMs: number;
  /** Whether the document came back byte for byte. */
  same: boolean;
}

/** The corpus pages' documents, one after another, to about `targetBytes` of JSON. */
function corpusDocument(targetBytes: number): JSONDocument {
  const folder = new URL('../test/fixtures/gitbook/', import.meta.url);
  const pages = readdirSync(folder).filter((name) => name.endsWith('.md')).map((name) => readFileSync(new URL(name, folder), 'utf8'));
  const document: JSONDocument = { object: 'document', data: {}, nodes: [] };
  for (let index = 0; JSON.stringify(document).length < targetBytes; index++) {
    document.nodes.push(...markdownToDocument(pages[index % pages.length], linksAsWritten).nodes);
  }
  return withKeys(document);
}

export function benchEditor(targetBytes = 100_000, times = 25): EditorResult {
  const document = corpusDocument(targetBytes);
  const written = JSON.stringify(document);
  const json = documentToProseMirror(document);
  const node = documentToNode(document);
  node.check();
  // Warm every path before measuring.
  for (let index = 0; index < 20; index++) {
    proseMirrorToDocument(documentToProseMirror(document));
    nodeToDocument(documentToNode(document));
    JSON.parse(JSON.stringify(document));
  }
  return {
    bytes: written.length,
    blocks: document.nodes.length,
    toJsonMs: medianMilliseconds(() => documentToProseMirror(document), times),
    toNodeMs: medianMilliseconds(() => documentToNode(document), times),
    fromJsonMs: medianMilliseconds(() => proseMirrorToDocument(json), times),
    fromNodeMs: medianMilliseconds(() => nodeToDocument(node), times),
    baselineMs: medianMilliseconds(() => JSON.parse(JSON.stringify(document)), times),
    same: JSON.stringify(nodeToDocument(node)) === written && JSON.stringify(proseMirrorToDocument(json)) === written,
  };
}
