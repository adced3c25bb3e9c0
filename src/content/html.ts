// A web page's main content as markdown, for website imports: the page is parsed to a
// hast tree (rehype), its main element kept (main, article, or the body without its
// navigation), links and images rewritten by the caller, and the rest turned into
// markdown through mdast (rehype-remark, remark-gfm). Links found anywhere on the page
// are answered too, for the crawler to follow.
import type { Element, Root as HastRoot } from 'hast';
import { toText } from 'hast-util-to-text';
import rehypeParse from 'rehype-parse';
import rehypeRemark from 'rehype-remark';
import remarkGfm from 'remark-gfm';
import remarkStringify from 'remark-stringify';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';

export interface ParsedPage {
  title: string;
  /** Absolute URLs of every <a href> on the page, in order, without fragments. */
  links: string[];
  /** Absolute URLs of the images in the main content. */
  images: string[];
  /** The main content, ready to turn into markdown. */
  main: HastRoot;
}

const htmlParser = unified().use(rehypeParse);
const toMarkdown = unified().use(rehypeRemark).use(remarkGfm).use(remarkStringify, { bullet: '-', fences: true });

const CHROME = new Set(['nav', 'header', 'footer', 'aside', 'script', 'style', 'noscript', 'template', 'form', 'iframe']);

function absolute(href: string, base: string): string | undefined {
  try {
    const url = new URL(href, base);
    url.hash = '';
    return url.toString();
  } catch {
    return undefined;
  }
}

function findElement(tree: HastRoot | Element, tagNames: string[]): Element | undefined {
  let found: Element | undefined;
  visit(tree, 'element', (node: Element) => {
    if (!found && tagNames.includes(node.tagName)) found = node;
  });
  return found;
}

export function parsePage(html: string, pageUrl: string): ParsedPage {
  const tree = htmlParser.parse(html) as HastRoot;
  const links: string[] = [];
  visit(tree, 'element', (node: Element) => {
    const href = node.tagName === 'a' ? node.properties?.href : undefined;
    const url = typeof href === 'string' ? absolute(href, pageUrl) : undefined;
    if (url) links.push(url);
  });
  const titleElement = findElement(tree, ['title']);
  const container = findElement(tree, ['main']) ?? findElement(tree, ['article']) ?? findElement(tree, ['body']) ?? tree;
  const main: HastRoot = { type: 'root', children: structuredClone('children' in container ? container.children : []) };
  // Site chrome is not content: it would repeat on every imported page.
  visit(main, 'element', (node: Element, index, parent) => {
    if (parent && index !== undefined && CHROME.has(node.tagName)) {
      parent.children.splice(index, 1);
      return index;
    }
  });
  const images: string[] = [];
  visit(main, 'element', (node: Element) => {
    const src = node.tagName === 'img' ? node.properties?.src : undefined;
    const url = typeof src === 'string' ? absolute(src, pageUrl) : undefined;
    if (url) images.push(url);
  });
  const heading = findElement(main, ['h1']);
  const title = (heading ? toText(heading) : titleElement ? toText(titleElement) : '').trim().replace(/\s+/g, ' ');
  return { title, links, images, main };
}

/**
 * The main content as markdown, with each link and image URL (made absolute against
 * the page) passed through `rewrite`, which answers the URL to write instead.
 */
export function pageMarkdown(page: ParsedPage, pageUrl: string, rewrite: (url: string, kind: 'link' | 'image') => string): string {
  const main = structuredClone(page.main);
  visit(main, 'element', (node: Element) => {
    const attribute = node.tagName === 'a' ? 'href' : node.tagName === 'img' ? 'src' : undefined;
    const value = attribute ? node.properties?.[attribute] : undefined;
    if (!attribute || typeof value !== 'string') return;
    const target = absolute(value, pageUrl);
    if (!target) return;
    const fragment = node.tagName === 'a' ? new URL(value, pageUrl).hash : '';
    node.properties![attribute] = rewrite(target, node.tagName === 'a' ? 'link' : 'image') + fragment;
  });
  const mdast = toMarkdown.runSync(main);
  return String(toMarkdown.stringify(mdast as never)).trim();
}
