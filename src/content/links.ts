// The links of a page, read from its markdown tree (mdast): inline links, images,
// and reference definitions, each with what it points at in the revision.
import type { Heading, Nodes } from 'mdast';
import { visit } from 'unist-util-visit';
import { anchorOf, parseMarkdown, type ContentRef, type LinkResolver } from './document.ts';

export interface PageLink {
  url: string;
  /** Images and embedded files are what the page depends on; links only reference. */
  relation: 'reference' | 'dependsOn';
  target: ContentRef | { kind: 'space'; space: string };
}

export interface PageLinks {
  links: PageLink[];
  /** The anchors of the page's headings, which links to it may name. */
  anchors: Set<string>;
}

/** Schemes a link may lead to when it is rendered for readers: none that runs script. */
const SAFE_LINK_SCHEMES = new Set(['http', 'https', 'mailto']);

/**
 * True for a URL that is safe to render as a link: http(s), mailto, or a relative path
 * or anchor. Browsers drop ASCII whitespace and control characters inside a scheme
 * ("java\tscript:"), so they are dropped here before the scheme is read.
 */
export function isSafeLinkUrl(url: string): boolean {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url.replace(/[\u0000-\u0020\u007f]/g, ''));
  return scheme === null || SAFE_LINK_SCHEMES.has(scheme[1].toLowerCase());
}

/** Links to another space of Quire, written as its path: "/s/<spaceId>…" or "/spaces/<spaceId>…". */
const SPACE_PATH = /^\/(?:s|spaces)\/([A-Za-z0-9_-]+)(?:[/?#]|$)/;

export function linksOf(markdown: string, resolve: LinkResolver): PageLinks {
  const root = parseMarkdown(markdown);
  const links: PageLink[] = [];
  const anchors = new Set<string>();
  visit(root, (node: Nodes) => {
    if (node.type === 'heading') anchors.add(anchorOf(node as Heading));
    if (node.type !== 'link' && node.type !== 'image' && node.type !== 'definition') return;
    const url = node.url.trim();
    if (!url) return;
    const space = SPACE_PATH.exec(url);
    links.push({
      url,
      relation: node.type === 'image' ? 'dependsOn' : 'reference',
      target: space ? { kind: 'space', space: space[1] } : resolve(url),
    });
  });
  return { links, anchors };
}
