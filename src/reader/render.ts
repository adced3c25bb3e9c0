// A page's JSONDocument as HTML for readers: one mapping from every node kind to hast,
// written out by hast-util-to-html, so text is escaped by construction and nothing in
// a document becomes markup it did not ask for. Needs no script to read: tabs are
// sections, expandables are <details>, code is highlighted on the server (lowlight),
// maths is typeset as MathML (KaTeX).
import type { Element, ElementContent, Properties, Root } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { toHtml } from 'hast-util-to-html';
import { glyphOf } from '../content/gitbook/emoji.ts';
import type { IconShape } from '../lib/icons.ts';
import { iconSvgElement } from './layout.ts';
import { isSafeLinkUrl } from '../content/gitbook/safety.ts';
import type { Block, ContentRef, Fragment, Inline, JSONDocument, Mark, TextNode } from '../content/gitbook/model.ts';
import { optionLabel, plainText } from '../content/gitbook/model.ts';
import { cellSpans, emptyBlocks, orderedRecords } from '../content/gitbook/tableCells.ts';
import type { OpenApiView } from './openapi.ts';

/**
 * The highlighter and the typesetter, loaded by the first page rendered rather than at
 * every start: with highlight.js's common languages they hold ~30 MB that a server
 * answering only the API never uses.
 */
let libraries: { lowlight: ReturnType<typeof import('lowlight').createLowlight>; katex: typeof import('katex').default } | undefined;
let loading: Promise<void> | undefined;

/** Loads what rendering needs; `documentToHast` may run once this has resolved. */
export function loadRenderers(): Promise<void> {
  loading ??= Promise.all([import('lowlight'), import('katex')]).then(([{ common, createLowlight }, katex]) => {
    libraries = { lowlight: createLowlight(common), katex: katex.default };
  });
  return loading;
}

function renderers() {
  if (!libraries) throw new Error('documentToHast ran before loadRenderers() resolved');
  return libraries;
}

/**
 * A TeX formula typeset as MathML, which browsers draw without a script or stylesheet,
 * its source kept in the annotation. KaTeX trusts no command that links or includes, and
 * bounds sizes and macro expansion; a formula it cannot read shows as its source.
 */
function typeset(formula: string, display: boolean): Child[] {
  const mathml = renderers().katex.renderToString(formula, { output: 'mathml', displayMode: display, throwOnError: false, trust: false, strict: 'ignore', maxSize: 50, maxExpand: 1000 });
  return fromHtml(mathml, { fragment: true }).children as Child[];
}

/** What rendering needs from the site around the page. */
export interface RenderContext {
  /** What a reference kept as written (a `url` one) is where the page sits: a page, a file, an anchor or a URL. */
  resolve?(ref: ContentRef): ContentRef;
  /** Where a (resolved) reference leads for a reader; undefined when it leads nowhere they may go. */
  href(ref: ContentRef): string | undefined;
  /** A page's title, for content references. */
  pageTitle?(pageId: string): string | undefined;
  /** The site's search for a query, where a button that opens the search (or asks the assistant, which Quire has not) leads. */
  search?(query: string): string;
  /** The organization's OpenAPI spec of this slug, loaded for the page (openApiSpecsOf). */
  openapi?(spec: string): OpenApiView | undefined;
  /** The drawing of a Font Awesome icon of this name (lib/icons.ts, on the server); without it, or for a name it has not, an icon keeps its place, empty. */
  iconShape?(name: string): IconShape | undefined;
  /** Where the app serves an icon of this name, drawn as a mask in the text's colour where no shape is known (the app's own views: their policy lets styles inline). */
  iconUrl?(name: string): string;
}

type Child = ElementContent;

function h(tagName: string, properties: Properties = {}, children: Child[] = []): Element {
  return { type: 'element', tagName, properties, children };
}

/** Highlighted code cut at its line ends: an element that spans lines is repeated on each, around its part of it. */
function codeLines(nodes: Child[]): Child[][] {
  const lines: Child[][] = [[]];
  for (const node of nodes) {
    const parts: Child[][] =
      node.type === 'text' ? node.value.split('\n').map((value) => (value ? [t(value)] : []))
      : node.type === 'element' ? codeLines(node.children).map((children) => [{ ...node, children }])
      : [[node]];
    parts.forEach((part, index) => {
      if (index > 0) lines.push([]);
      lines[lines.length - 1].push(...part);
    });
  }
  return lines;
}

function t(value: string): Child {
  return { type: 'text', value };
}

const HINT_LABELS: Record<string, string> = { info: 'Note', success: 'Tip', warning: 'Warning', danger: 'Danger' };

/** Applies a leaf's marks, innermost first, as GitBook renders them. */
function marked(text: string, marks: Mark[]): Child {
  let node: Child = t(text);
  for (const mark of [...marks].reverse()) {
    switch (mark.type) {
      case 'bold':
        node = h('strong', {}, [node]);
        break;
      case 'italic':
        node = h('em', {}, [node]);
        break;
      case 'code':
        node = h('code', {}, [node]);
        break;
      case 'keyboard':
        node = h('kbd', {}, [node]);
        break;
      case 'strikethrough':
        node = h('s', {}, [node]);
        break;
      case 'superscript':
        node = h('sup', {}, [node]);
        break;
      case 'subscript':
        node = h('sub', {}, [node]);
        break;
      case 'color':
        node = h('mark', { className: [`color-${safeToken(mark.data?.text)}`, `background-${safeToken(mark.data?.background)}`] }, [node]);
        break;
    }
  }
  return node;
}

/** A colour or icon name as a class name: letters, digits and dashes only. */
function safeToken(value: unknown): string {
  return String(value ?? 'default').replace(/^\$/, '').replace(/[^A-Za-z0-9-]/g, '') || 'default';
}

/** A paragraph's or heading's alignment (GitBook's TextAlignment) as its style; none for any other value. */
function textAlignment(align: unknown): Properties {
  return align === 'center' || align === 'end' ? { style: `text-align:${align}` } : {};
}

function lengthCss(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return `${value}px`;
  if (value && typeof value === 'object' && 'value' in value) {
    const { value: amount, unit } = value as { value: number; unit?: string };
    if (Number.isFinite(amount) && /^(%|px|em|rem)$/.test(unit ?? 'px')) return `${amount}${unit ?? 'px'}`;
  }
  return undefined;
}

export function documentToHast(document: Pick<JSONDocument, 'nodes'>, context: RenderContext): Root {
  const notes: Element[] = [];
  const topHeading = Math.min(3, ...document.nodes.filter((node) => node.type.startsWith('heading-')).map((node) => Number(node.type.slice(-1))));
  const resolved = (ref: unknown): ContentRef | undefined => {
    if (!ref || typeof ref !== 'object') return undefined;
    return context.resolve ? context.resolve(ref as ContentRef) : (ref as ContentRef);
  };
  const href = (ref: unknown): string | undefined => {
    const target = resolved(ref);
    const url = target && context.href(target);
    return url !== undefined && isSafeLinkUrl(url) ? url : undefined;
  };
  const imageSrc = (ref: unknown): string | undefined => {
    const candidate = ref && typeof ref === 'object' && (ref as ContentRef).kind === 'url' ? (ref as { url: string }).url : undefined;
    return candidate && /^data:image\//i.test(candidate) ? candidate : href(ref);
  };

  const specOf = (ref: unknown): OpenApiView | undefined => {
    const spec = ref && typeof ref === 'object' && (ref as ContentRef).kind === 'openapi' ? (ref as { spec: string }).spec : undefined;
    return spec ? context.openapi?.(spec) : undefined;
  };

  const inlines = (nodes: Array<TextNode | Inline> = []): Child[] => nodes.flatMap(inline);

  function inline(node: TextNode | Inline): Child[] {
    if (node.object === 'text') return node.leaves.map((leaf) => marked(leaf.text, leaf.marks));
    const data = node.data ?? {};
    switch (node.type) {
      case 'link': {
        const target = href(data.ref);
        const children = inlines(node.nodes);
        return target ? [h('a', { href: target }, children)] : children;
      }
      case 'inline-image': {
        const src = imageSrc(data.ref);
        return src ? [h('img', { src, alt: String(data.alt ?? ''), className: data.size === 'line' ? ['inline-image', 'line'] : ['inline-image'] })] : [];
      }
      case 'emoji':
        return [h('span', { className: ['emoji'] }, [t(glyphOf(String(data.code ?? '')))])];
      case 'icon': {
        const name = String(data.icon ?? '');
        const shape = context.iconShape?.(name);
        if (shape) return [iconSvgElement(shape, ['icon', `icon-${safeToken(data.icon)}`])];
        const url = name && context.iconUrl?.(name);
        return [h('span', { className: ['icon', `icon-${safeToken(data.icon)}`], ariaHidden: 'true', ...(url ? { style: `--icon:url("${url}")` } : {}) })];
      }
      case 'inline-math':
        return [h('span', { className: ['math', 'math-inline'] }, typeset(String(data.formula ?? ''), false))];
      case 'expression':
        return [h('code', { className: ['expression'] }, [t(String(data.expression ?? ''))])];
      case 'mention': {
        const ref = data.ref as ContentRef | undefined;
        if (!ref || ref.kind === 'user') return [h('span', { className: ['mention'] }, [t(`@${ref?.user ?? ''}`)])];
        // A mention of a page shows the page's title, as GitBook shows it; of anything else, where it leads.
        const target = href(ref);
        const page = resolved(ref);
        const title = (page?.kind === 'page' || page?.kind === 'anchor') && page.page ? context.pageTitle?.(page.page) : undefined;
        return target ? [h('a', { href: target, className: ['mention'] }, [t(title ?? target)])] : [];
      }
      case 'button': {
        const action = data.action && typeof data.action === 'object' ? (data.action as { action?: unknown; query?: unknown }) : undefined;
        const opensSearch = action?.action === 'search' || action?.action === 'ask';
        const target = opensSearch ? context.search?.(typeof action.query === 'string' ? action.query : '') : href(data.ref);
        const label = t(String(data.label ?? ''));
        const className = ['button', data.kind === 'secondary' ? 'secondary' : 'primary'];
        return [target ? h('a', { href: target, className }, [label]) : h('span', { className }, [label])];
      }
      case 'annotation': {
        const number = notes.length + 1;
        notes.push(h('li', { id: `note-${number}` }, [...blocks(node.fragments?.[0]?.nodes ?? []), h('a', { href: `#note-ref-${number}`, ariaLabel: 'Back to the text' }, [t('↩')])]));
        return [...inlines(node.nodes), h('sup', { id: `note-ref-${number}` }, [h('a', { href: `#note-${number}`, ariaLabel: `Note ${number}` }, [t(String(number))])])];
      }
      default:
        return inlines(node.nodes);
    }
  }

  const fragment = (node: Block, name: string): Fragment | undefined => node.fragments?.find((item) => item.fragment === name || item.type === name);
  /** A block's caption fragment (an image's, an embed's, a drawing's) as its `<figcaption>`. */
  const figcaption = (node: Block): Element[] => {
    const words = (fragment(node, 'caption')?.nodes ?? []).flatMap((item) => inlines(item.nodes as Array<TextNode | Inline>));
    return words.length ? [h('figcaption', {}, words)] : [];
  };
  const childBlocks = (node: Block): Block[] => (node.nodes ?? []).filter((child): child is Block => child.object === 'block');

  const code = (node: Block): Element => {
    const source = childBlocks(node).map((line) => plainText(line)).join('\n');
    const syntax = typeof node.data.syntax === 'string' ? node.data.syntax.toLowerCase() : '';
    if (syntax === 'mermaid') return h('pre', { className: ['mermaid'] }, [t(source)]);
    const { lowlight } = renderers();
    const highlighted = syntax && lowlight.registered(syntax) ? (lowlight.highlight(syntax, source).children as Child[]) : [t(source)];
    // A span per line, so that lines can be numbered and marked as the document's highlighted ones.
    const marked = childBlocks(node).map((line) => line.data?.highlighted === true);
    const lines = codeLines(highlighted).flatMap((line, index) => [...(index > 0 ? [t('\n')] : []), h('span', { className: ['line', ...(marked[index] ? ['highlighted'] : [])] }, line)]);
    const classes = ['code', ...(node.data.lineNumbers ? ['line-numbers'] : []), ...(node.data.overflow === 'wrap' ? ['wrap'] : [])];
    const title = typeof node.data.title === 'string' && node.data.title ? [h('figcaption', {}, [t(node.data.title)])] : [];
    return h('figure', { className: classes }, [...title, h('pre', {}, [h('code', { className: syntax ? [`language-${safeToken(syntax)}`] : [] }, lines)])]);
  };

  const image = (node: Block): Element | undefined => {
    const src = imageSrc(node.data.ref);
    if (!src) return undefined;
    const width = lengthCss(node.data.width);
    const img = h('img', { src, alt: String(node.data.alt ?? ''), loading: 'lazy', ...(width ? { style: `width:${width}` } : {}) });
    const dark = imageSrc(node.data.refDark);
    const picture = dark ? h('picture', {}, [h('source', { srcSet: dark, media: '(prefers-color-scheme: dark)' }), img]) : img;
    return h('figure', { className: ['image'] }, [picture, ...figcaption(node)]);
  };

  const table = (node: Block): Element => {
    const data = node.data as {
      view?: { type?: string; columns?: string[]; hideHeader?: boolean; targetDefinition?: string; coverDefinition?: string };
      definition?: Record<string, { title?: string; type?: string; textAlignment?: string; options?: Array<{ value?: string; label?: string }> }>;
      records?: Record<string, { orderIndex?: string; values?: Record<string, unknown> }>;
    };
    const fragments = new Map((node.fragments ?? []).map((item) => [item.fragment, item.nodes]));
    const columns = data.view?.columns ?? [];
    const ordered = orderedRecords(data.records);
    const records = ordered.map(([, record]) => record);
    const cell = (value: unknown, column: string): Child[] => {
      const { type, options } = data.definition?.[column] ?? {};
      if (typeof value === 'string' && fragments.has(value)) return blocks(fragments.get(value)!);
      if (type === 'select' && Array.isArray(value)) {
        const labels = value.map((option) => optionLabel(options, option));
        return labels.length ? [h('span', { className: ['options'] }, [t(labels.join(', '))])] : [];
      }
      if (type === 'files' && Array.isArray(value)) return value.flatMap((file) => { const url = href({ kind: 'file', file: String(file) }); return url ? [h('a', { href: url }, [t(String(file))])] : []; });
      const url = href(value && typeof value === 'object' && 'ref' in value ? value.ref : value);
      return url ? [h('a', { href: url }, [t(url)])] : [];
    };
    if (data.view?.type === 'cards') {
      return h('div', { className: ['cards'] }, records.map((record) => {
        const target = data.view?.targetDefinition ? record.values?.[data.view.targetDefinition] : undefined;
        const url = href(target && typeof target === 'object' && 'ref' in target ? target.ref : target);
        const body = columns.flatMap((column) => cell(record.values?.[column], column));
        return url ? h('a', { className: ['card'], href: url }, body) : h('div', { className: ['card'] }, body);
      }));
    }
    const align = (column: string) => {
      const alignment = data.definition?.[column]?.textAlignment;
      return alignment === 'center' || alignment === 'right' ? { style: `text-align:${alignment}` } : {};
    };
    const head = data.view?.hideHeader ? [] : [h('thead', {}, [h('tr', {}, columns.map((column) => h('th', { scope: 'col', ...align(column) }, [t(data.definition?.[column]?.title ?? '')])))])];
    const spans = cellSpans(data, ordered, columns, (name) => emptyBlocks(fragments.get(name)));
    const rows = records.map((record, row) =>
      h('tr', {}, columns.flatMap((column, index) => {
        if (spans.covers(row, index)) return [];
        const span = spans.anchoredAt(row, index);
        return [h('td', { ...align(column), ...(span && span.colSpan > 1 ? { colSpan: span.colSpan } : {}), ...(span && span.rowSpan > 1 ? { rowSpan: span.rowSpan } : {}) }, cell(record.values?.[column], column))];
      })),
    );
    return h('div', { className: ['table'] }, [h('table', {}, [...head, h('tbody', {}, rows)])]);
  };

  function block(node: Block): Child[] {
    const data = node.data ?? {};
    switch (node.type) {
      case 'paragraph':
        return [h('p', textAlignment(data.align), inlines(node.nodes as Array<TextNode | Inline>))];
      case 'heading-1':
      case 'heading-2':
      case 'heading-3': {
        // The page title is the page's <h1>; its highest headings are <h2>, whichever level the markdown started at.
        const level = Number(node.type.slice(-1)) - topHeading + 2;
        const id = String(node.meta?.id ?? data.id ?? '');
        return [h(`h${level}`, { id, ...textAlignment(data.align) }, [...inlines(node.nodes as Array<TextNode | Inline>), h('a', { className: ['anchor'], href: `#${id}`, ariaLabel: 'Link to this section' }, [t('#')])])];
      }
      case 'list-ordered':
        return [h('ol', typeof data.start === 'number' ? { start: data.start } : {}, childBlocks(node).map((item) => h('li', {}, blocks(childBlocks(item)))))];
      case 'list-unordered':
        return [h('ul', {}, childBlocks(node).map((item) => h('li', {}, blocks(childBlocks(item)))))];
      case 'list-tasks':
        return [h('ul', { className: ['tasks'] }, childBlocks(node).map((item) => h('li', {}, [h('input', { type: 'checkbox', disabled: true, checked: item.data?.checked === true, ariaLabel: item.data?.checked ? 'Done' : 'To do' }), ...blocks(childBlocks(item))])))];
      case 'blockquote':
        return [h('blockquote', {}, blocks(childBlocks(node)))];
      case 'hint': {
        const style = HINT_LABELS[String(data.style)] ? String(data.style) : 'info';
        return [h('aside', { className: ['hint', `hint-${style}`], role: 'note', ariaLabel: HINT_LABELS[style] }, blocks(childBlocks(node)))];
      }
      case 'code':
        return [code(node)];
      case 'math':
        return [h('div', { className: ['math', 'math-block'] }, typeset(String(data.formula ?? ''), true))];
      case 'divider':
        return [h('hr')];
      case 'images': {
        const images = childBlocks(node).flatMap((item) => image(item) ?? []);
        return [h('div', { className: ['images', ...(data.fullWidth ? ['full-width'] : [])] }, images)];
      }
      case 'image':
        return image(node) ? [image(node)!] : [];
      case 'drawing': {
        const src = imageSrc(data.ref);
        return src ? [h('figure', { className: ['drawing'] }, [h('img', { src, alt: 'Drawing' }), ...figcaption(node)])] : [];
      }
      case 'file': {
        const url = href(data.ref);
        // Its caption's words alone: a link inside the caption cannot sit inside this one.
        const caption = fragment(node, 'caption');
        return url ? [h('p', { className: ['file'] }, [h('a', { href: url, download: true }, [t((caption && plainText(caption)) || 'Download the file')])])] : [];
      }
      case 'embed': {
        const url = typeof data.url === 'string' && isSafeLinkUrl(data.url) ? data.url : undefined;
        return url ? [h('figure', { className: ['embed'] }, [h('a', { href: url }, [t(url)]), ...figcaption(node)])] : [];
      }
      case 'content-ref': {
        const url = href(data.ref);
        const ref = resolved(data.ref) as { kind?: string; page?: string; url?: string } | undefined;
        const title = (ref?.kind === 'page' && ref.page && context.pageTitle?.(ref.page)) || url;
        return url ? [h('p', { className: ['content-ref'] }, [h('a', { href: url }, [t(title ?? url)])])] : [];
      }
      // Included blocks are put in place before rendering (withIncludedBlocks); an include left is one nobody can read.
      case 'reusable-content':
        return [];
      case 'table':
        return [table(node)];
      case 'tabs':
        return [h('div', { className: ['tabs'] }, childBlocks(node).map((tab) => h('section', { className: ['tab'] }, [h('p', { className: ['tab-title'] }, [t(String(tab.data?.title ?? ''))]), ...blocks(childBlocks(tab))])))];
      case 'expandable': {
        const title = fragment(node, 'expandable-title')?.nodes ?? [];
        const body = fragment(node, 'expandable-body')?.nodes ?? [];
        return [h('details', { className: ['expandable'], open: data.defaultExpanded === true }, [h('summary', {}, title.flatMap((item) => inlines(item.nodes as Array<TextNode | Inline>))), ...blocks(body)])];
      }
      case 'stepper':
        return [h('ol', { className: ['stepper'] }, childBlocks(node).map((step) => h('li', { className: ['step'] }, blocks(childBlocks(step)))))];
      case 'columns':
        return [h('div', { className: ['columns'] }, childBlocks(node).map((column) => {
          const width = lengthCss(column.data?.width);
          return h('div', { className: ['column'], ...(width ? { style: `flex:0 1 ${width}` } : {}) }, blocks(childBlocks(column)));
        }))];
      case 'updates':
        return [h('div', { className: ['updates'] }, childBlocks(node).map((update) => {
          const date = String(update.data?.date ?? '');
          return h('article', { className: ['update'] }, [h('p', { className: ['update-date'] }, [h('time', { dateTime: date }, [t(date)])]), ...blocks(childBlocks(update))]);
        }))];
      case 'prompt':
        return [h('figure', { className: ['prompt'] }, [h('figcaption', {}, [t(String(data.description ?? ''))]), ...blocks(childBlocks(node))])];
      case 'if':
        // Conditions are decided for the reader before rendering (withConditionsDecided); one left undecided shows nothing.
        return [];
      case 'swagger':
      case 'openapi-operation':
      case 'openapi-webhook': {
        const view = specOf(data.ref);
        const shown = node.type === 'openapi-webhook' ? view?.webhook(String(data.name ?? ''), String(data.method ?? '')) : view?.operation(String(data.path ?? ''), String(data.method ?? ''));
        if (shown) return [shown];
        // A spec not processed yet, or an operation it no longer has: the block says what it shows.
        const label = `${String(data.method ?? '').toUpperCase()} ${String(data.path ?? data.name ?? '')}`.trim();
        const url = href(data.ref);
        return [h('div', { className: ['openapi'] }, [h('p', {}, [h('code', {}, [t(label)]), ...(url ? [t(' '), h('a', { href: url }, [t('OpenAPI document')])] : [])])])];
      }
      case 'openapi-schemas': {
        const names = (data.schemas as string[] | undefined) ?? [];
        const shown = specOf(data.ref)?.schemas(names, typeof data.title === 'string' ? data.title : undefined);
        return [shown ?? h('div', { className: ['openapi'] }, [h('p', {}, [t(`Schemas: ${names.join(', ')}`)])])];
      }
      case 'integration': {
        const url = typeof (data.props as { url?: unknown } | undefined)?.url === 'string' ? String((data.props as { url: string }).url) : undefined;
        return url && isSafeLinkUrl(url) ? [h('p', { className: ['integration'] }, [h('a', { href: url }, [t(url)])])] : [];
      }
      default: {
        // A kind this reader does not know still shows its words.
        const words = plainText(node);
        return words ? [h('p', {}, [t(words)])] : [];
      }
    }
  }

  function blocks(nodes: Block[]): Child[] {
    return nodes.flatMap(block);
  }

  const children = blocks(document.nodes);
  if (notes.length > 0) children.push(h('section', { className: ['notes'], ariaLabel: 'Notes' }, [h('ol', {}, notes)]));
  return { type: 'root', children };
}

/** A page's document as HTML. */
export function renderDocument(document: Pick<JSONDocument, 'nodes'>, context: RenderContext): string {
  return toHtml(documentToHast(document, context));
}

/** The outline of a page: its headings, for the "on this page" list. */
export function outlineOf(document: Pick<JSONDocument, 'nodes'>): Array<{ id: string; title: string; level: number }> {
  return document.nodes
    .filter((node) => node.type.startsWith('heading-'))
    .map((node) => ({ id: String(node.meta?.id ?? node.data?.id ?? ''), title: plainText(node), level: Number(node.type.slice(-1)) }));
}
