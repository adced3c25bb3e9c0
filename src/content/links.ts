// The links of a page, read from its document: links, images, files, content
// references, embeds, buttons and the references in table cells, inside every block,
// each with what it points at in the revision.
import { markdownToDocument, type ContentRef, type LinkResolver } from './document.ts';
import type { Block, Fragment, Inline, TextNode } from './gitbook/model.ts';

/** What a link may point at that Quire follows: a page, an anchor, a file, another space or a URL. */
export type LinkTarget = Extract<ContentRef, { kind: 'page' | 'anchor' | 'file' | 'url' }> | { kind: 'space'; space: string };

export interface PageLink {
  url: string;
  /** Images and embedded files are what the page depends on; links only reference. */
  relation: 'reference' | 'dependsOn';
  target: LinkTarget;
}

export interface PageLinks {
  links: PageLink[];
  /** The anchors of the page's headings, which links to it may name. */
  anchors: Set<string>;
}

/** Links to another space of Quire, written as its path: "/s/<spaceId>…" or "/spaces/<spaceId>…". */
const SPACE_PATH = /^\/(?:s|spaces)\/([A-Za-z0-9_-]+)(?:[/?#]|$)/;

/** Block and inline kinds whose `ref` the page depends on rather than only points at. */
const DEPENDS_ON = new Set(['image', 'inline-image', 'file', 'drawing', 'swagger']);

export function linksOf(markdown: string, resolve: LinkResolver): PageLinks {
  const links: PageLink[] = [];
  const anchors = new Set<string>();
  const urls = new Map<ContentRef, string>();
  // The document keeps references, not what was written: remember each one's text.
  const document = markdownToDocument(markdown, (url) => {
    const ref = resolve(url);
    urls.set(ref, url);
    return ref;
  });
  const add = (ref: unknown, relation: PageLink['relation']) => {
    if (!ref || typeof ref !== 'object') return;
    const target = ref as ContentRef;
    const url = urls.get(target) ?? (target.kind === 'url' ? target.url : undefined);
    if (url === undefined || !url.trim()) return;
    const space = SPACE_PATH.exec(url);
    if (space) links.push({ url, relation, target: { kind: 'space', space: space[1] } });
    else if (target.kind === 'page' || target.kind === 'anchor' || target.kind === 'file' || target.kind === 'url') links.push({ url, relation, target });
  };
  const visit = (node: Block | Inline | TextNode | Fragment) => {
    if (node.object === 'text') return;
    if (node.object !== 'fragment') {
      if (node.object === 'block' && node.type.startsWith('heading-') && typeof node.meta?.id === 'string') anchors.add(node.meta.id);
      const relation = DEPENDS_ON.has(node.type) ? 'dependsOn' : 'reference';
      add(node.data.ref, relation);
      add(node.data.refDark, relation);
      if (node.type === 'embed' && typeof node.data.url === 'string') add(resolveAndKeep(node.data.url), 'reference');
      if (node.type === 'table') {
        for (const record of Object.values((node.data.records ?? {}) as Record<string, { values: Record<string, unknown> }>)) {
          for (const value of Object.values(record.values)) if (value && typeof value === 'object' && !Array.isArray(value)) add('ref' in value ? value.ref : value, 'reference');
        }
      }
    }
    for (const child of node.nodes ?? []) visit(child);
    for (const fragment of ('fragments' in node ? node.fragments : undefined) ?? []) visit(fragment);
  };
  const resolveAndKeep = (url: string) => {
    const ref = resolve(url);
    urls.set(ref, url);
    return ref;
  };
  for (const node of document.nodes) visit(node);
  return { links, anchors };
}
