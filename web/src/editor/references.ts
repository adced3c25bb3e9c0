// What the editor's references point at, read through the API as the writer: the change
// request's pages, files and reusable contents (its content, the query the change
// request's screen shares), a page's headings, the organization's members and its
// OpenAPI specs. And the rules the parts share about a content reference: whether it
// still leads somewhere in this change request, and the words that name it.
import { useQueries, useQuery } from '@tanstack/react-query';
import type { Editor } from '@tiptap/core';
import { NodeSelection, TextSelection } from '@tiptap/pm/state';
import { useMemo } from 'react';
import { hasScheme, type ContentRef, type JSONDocument } from '../../../src/content/gitbook/model.ts';
import { SAFE_LINK_SCHEMES } from '../../../src/content/gitbook/safety.ts';
import { api, segment } from '../api/client.ts';
import type { List } from '../api/types.ts';
import { listMembers } from '../features/members/api/members.ts';
import type { PageWithDocument, RevisionContent } from '../features/pages/api/content.ts';
import { indexPages, type IndexedPage, type PageIndex } from '../features/pages/components/pageTree.ts';
import { useContent } from '../features/pages/queries/content.ts';
import { useSpace } from '../features/spaces/queries/spaces.ts';
import type { EditorContext } from './part.ts';

/** The documents of a change request's reusable contents as the editor's blocks show them; what writes one refreshes them. */
export const reusableDocumentsKey = (spaceId: string, changeRequestId: string) => ['editor', 'reusable', spaceId, changeRequestId] as const;

/** The change request's pages (indexed), files and reusable contents, as its own screen reads them. */
export function useChangeRequestContent(context: EditorContext) {
  const content = useContent(context.spaceId, { kind: 'changeRequest', changeRequestId: context.changeRequestId });
  const { data } = content;
  const index = useMemo(() => (data ? indexPages(data.pages) : undefined), [data]);
  return { ...content, data, index };
}

/** The pages a reference may lead to: documents, not groups or links elsewhere. */
export const linkablePages = (index: PageIndex): IndexedPage[] => index.ordered.filter((entry) => entry.page.type === 'document');

export { iconUrl, pageGlyph } from '../features/pages/components/PageMark.tsx';

export interface Heading {
  anchor: string;
  title: string;
  level: 1 | 2 | 3;
}

const plainText = (node: { object: string; leaves?: Array<{ text: string }>; nodes?: unknown[] }): string =>
  node.object === 'text' ? (node.leaves ?? []).map((leaf) => leaf.text).join('') : ((node.nodes ?? []) as Array<typeof node>).map(plainText).join('');

/** The headings of a document that links may name: those with an anchor (GitBook's `meta.id`). */
export function headingsOf(document: Pick<JSONDocument, 'nodes'>): Heading[] {
  return document.nodes.flatMap((node) => {
    const level = /^heading-([123])$/.exec(node.type)?.[1];
    const anchor = node.meta?.id;
    return level && typeof anchor === 'string' ? [{ anchor, title: plainText(node), level: Number(level) as Heading['level'] }] : [];
  });
}

const headingsKey = (context: EditorContext, pageId: string) => ['editor', 'headings', context.spaceId, context.changeRequestId, pageId] as const;
const fetchHeadings = async (context: EditorContext, pageId: string) =>
  headingsOf((await api.get<PageWithDocument>(`${context.contentUrl}/page/${segment(pageId)}?format=document`)).document);

/** A page's headings as the change request holds the page (the open page's as last saved). */
export const useHeadings = (context: EditorContext, pageId: string | undefined) =>
  useQuery({ queryKey: headingsKey(context, pageId ?? ''), queryFn: () => fetchHeadings(context, pageId!), enabled: pageId !== undefined, staleTime: 5_000 });

/** The headings of several pages at once, by page id (undefined while one is loading or gone). */
export function useHeadingsOf(context: EditorContext, pageIds: string[]): Map<string, Heading[] | undefined> {
  const results = useQueries({ queries: pageIds.map((pageId) => ({ queryKey: headingsKey(context, pageId), queryFn: () => fetchHeadings(context, pageId), retry: false })) });
  return new Map(pageIds.map((pageId, at) => [pageId, results[at].data]));
}

/** The organization the space belongs to, for its members and specs. */
export const useOrganizationId = (context: EditorContext): string | undefined => useSpace(context.spaceId).data?.organization;

export const useMembers = (organizationId: string | undefined) =>
  useQuery({ queryKey: ['orgs', organizationId, 'members'], queryFn: () => listMembers(organizationId!), enabled: organizationId !== undefined });

export interface OpenApiSpecEntry {
  id: string;
  slug: string;
  processingState: string;
}

export interface OpenApiOperation {
  path: string;
  method: string;
  summary?: string;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

export const useOpenApiSpecs = (organizationId: string | undefined) =>
  useQuery({
    queryKey: ['orgs', organizationId, 'openapi'],
    queryFn: () => api.get<List<OpenApiSpecEntry>>(`/v1/orgs/${segment(organizationId!)}/openapi?limit=1000`),
    enabled: organizationId !== undefined,
  });

/** The operations of a spec's newest version, in the document's order: each path's methods. */
export const useOpenApiOperations = (organizationId: string | undefined, slug: string | undefined) =>
  useQuery({
    queryKey: ['orgs', organizationId, 'openapi', slug, 'operations'],
    queryFn: async () => {
      const content = await api.get<{ filesystem: { paths?: Record<string, Record<string, { summary?: unknown }>> } }>(
        `/v1/orgs/${segment(organizationId!)}/openapi/${segment(slug!)}/versions/latest/content`,
      );
      return Object.entries(content.filesystem.paths ?? {}).flatMap(([path, item]) =>
        HTTP_METHODS.filter((method) => item && typeof item[method] === 'object').map((method): OpenApiOperation => ({
          path,
          method,
          summary: typeof item[method].summary === 'string' ? (item[method].summary as string) : undefined,
        })),
      );
    },
    enabled: organizationId !== undefined && slug !== undefined,
  });

/** What the change request holds that references may lead to. */
export interface KnownTargets {
  pages: ReadonlySet<string>;
  files: ReadonlySet<string>;
  /** The anchors of pages other than the open one, as far as they are loaded. */
  anchors: ReadonlyMap<string, ReadonlySet<string> | undefined>;
  /** The open page, whose anchors the server makes as it saves (they are not checked); undefined in a reusable content. */
  pageId: string | undefined;
  /** The words that name where a reference leads (refLabel, as the change request holds it now). */
  label: (ref: unknown) => string;
}

/** Why a reference leads nowhere in this change request, in words; undefined while it leads somewhere (or cannot be checked here). */
export function brokenReason(ref: unknown, known: KnownTargets | undefined): string | undefined {
  if (!known || !ref || typeof ref !== 'object') return undefined;
  const target = ref as ContentRef;
  // Another space's content is not this change request's to check.
  if ('space' in target && target.space) return undefined;
  // Quire keeps a page in markdown: a link to a page that is gone is read back as the path it had (GitBook's export writes `/broken/pages/…`).
  if (target.kind === 'url' && target.url !== '' && !hasScheme(target.url) && !target.url.startsWith('//')) return 'This page does not exist in this change request';
  if (target.kind === 'file' && !known.files.has(target.file)) return 'This file does not exist in this change request';
  const place = placeOf(target, known.pageId);
  if (place) {
    if (!known.pages.has(place.page)) return 'This page does not exist in this change request';
    const anchors = place.anchor === undefined || place.page === known.pageId ? undefined : known.anchors.get(place.page);
    if (anchors && !anchors.has(place.anchor!)) return 'This heading does not exist in its page in this change request';
  }
  return undefined;
}

/** The page a reference leads to, and the heading in it if it names one (Quire reads a heading's link back as its page with an anchor). */
function placeOf(target: ContentRef, pageId: string | undefined): { page: string; anchor?: string } | undefined {
  if (target.kind === 'page') return { page: target.page, anchor: target.anchor };
  if (target.kind !== 'anchor') return undefined;
  // An anchor of no page named, in a reusable content: of whichever page includes it, so not checked here.
  const page = target.page ?? pageId;
  return page === undefined ? undefined : { page, anchor: target.anchor };
}

/** The pages other than the open one whose headings these references name. */
export function anchorPages(refs: unknown[], pageId: string | undefined): string[] {
  const pages = new Set<string>();
  for (const ref of refs) {
    const target = ref as ContentRef | undefined;
    const place = target && typeof target === 'object' && !('space' in target && target.space) ? placeOf(target, pageId) : undefined;
    if (place?.anchor !== undefined && place.page !== pageId) pages.add(place.page);
  }
  return [...pages].sort();
}

/** The words that name where a reference leads: a page's title, a heading, a file's name, an address. */
export function refLabel(ref: unknown, content: RevisionContent | undefined, index: PageIndex | undefined): string {
  const target = ref as ContentRef | undefined;
  if (!target) return 'Nothing';
  const title = (pageId: string) => index?.byId.get(pageId)?.page.title ?? 'A missing page';
  switch (target.kind) {
    case 'url':
      return target.url;
    case 'page':
      return `${title(target.page)}${target.anchor ? ` #${target.anchor}` : ''}`;
    case 'anchor':
      return `${target.page ? `${title(target.page)} ` : ''}#${target.anchor}`;
    case 'file':
      return content?.files.find((file) => file.id === target.file)?.name ?? 'A missing file';
    case 'user':
      return `@${target.user}`;
    default:
      return target.kind;
  }
}

const safeSchemes = new Set<string>(SAFE_LINK_SCHEMES);

/**
 * What a typed address becomes: a URL readers can follow (one of the schemes the reader
 * links, a bare domain taken as https), or the reason it is refused, in words.
 */
export function typedUrl(typed: string): { url: string } | { refused: string } {
  const trimmed = typed.trim();
  // As browsers read a scheme: whitespace and control characters inside it are dropped.
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(trimmed.replace(/[\u0000-\u0020\u007f]/g, ''))?.[1].toLowerCase();
  if (scheme === undefined) {
    return /^[^\s/]+\.[^\s/]+(\/\S*)?$/.test(trimmed) ? { url: `https://${trimmed}` } : { refused: 'Type a web address such as https://example.com, or search for a page or file.' };
  }
  if (!safeSchemes.has(scheme)) return { refused: `Links to “${scheme}:” addresses are not allowed: they could run code in readers’ browsers or lead nowhere. Use an https:// or mailto: address.` };
  if (/\s/.test(trimmed)) return { refused: 'A web address has no spaces. Check the address and try again.' };
  return { url: trimmed };
}

/**
 * A reference block (a page link, a reusable content, an OpenAPI operation) where the
 * cursor is: in place of an empty paragraph (where the slash was typed), with a new one
 * below to write on, as the divider does; else after the cursor's paragraph, selected.
 */
export function insertBlockHere(editor: Editor, type: string, data: Record<string, unknown>): void {
  editor
    .chain()
    .focus()
    .command(({ tr, state }) => {
      const { $from } = tr.selection;
      const node = state.schema.nodes[type].create({ data });
      if ($from.depth === 0) {
        tr.insert($from.pos, node);
      } else if ($from.parent.isTextblock && $from.parent.content.size === 0) {
        const at = $from.before();
        tr.replaceWith(at, $from.after(), [node, state.schema.nodes.paragraph.create()]);
        tr.setSelection(TextSelection.create(tr.doc, at + node.nodeSize + 1));
      } else {
        const at = $from.after();
        tr.insert(at, node);
        tr.setSelection(NodeSelection.create(tr.doc, at));
      }
      return true;
    })
    .run();
}
