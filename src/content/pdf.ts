// Renders pages as a PDF with pdfkit: titles, headings, paragraphs, lists, quotes,
// code, dividers, tables as rows of text, and images from the revision's files; every
// other block kind (tabs, steppers, columns, expandables, embeds, API blocks, …) as its
// title and its blocks, indented, so no words are left out.
import type { JSONDocument } from './document.ts';
import { plainText, type Block } from './gitbook/model.ts';
import { orderedRecords } from './gitbook/tableCells.ts';

export interface PdfPage {
  title: string;
  document: JSONDocument;
}

type Node = Block;

function blocksOf(node: Node): Node[] {
  return (node.nodes ?? []).filter((child): child is Node => child.object === 'block');
}

function plain(node: Node): string {
  return plainText(node);
}

/** What a block without text of its own is labelled by in a PDF: its title, URL or reference. */
function label(node: Node): string | undefined {
  const data = node.data ?? {};
  const ref = data.ref as { url?: string; file?: string; spec?: string; page?: string; reusableContent?: string } | undefined;
  const parts = [data.title, data.description, data.url, data.method && `${String(data.method).toUpperCase()} ${String(data.path ?? '')}`, data.date, data.expression]
    .filter((value): value is string => typeof value === 'string' && value !== '');
  const target = ref?.url ?? ref?.spec ?? ref?.file ?? ref?.reusableContent;
  return [...parts, ...(target ? [target] : [])].join(' · ') || undefined;
}

/** Image bytes by file id, for images the pages show (PNG and JPEG can be drawn). */
export type ImageLookup = (fileId: string) => Buffer | undefined;

/** Writes the PDF of `pages` to `onChunk` as pdfkit makes it, a chunk at a time. */
export async function writePdf(pages: PdfPage[], images: ImageLookup, onChunk: (chunk: Buffer) => void): Promise<void> {
  // Loaded when a PDF is first made: pdfkit and its fonts are the largest module Quire loads.
  const { default: PDFDocument } = await import('pdfkit');
  const pdf = new PDFDocument({ size: 'A4', margin: 56, info: { Title: pages[0]?.title ?? 'Quire' } });
  pdf.on('data', onChunk);
  const done = new Promise<void>((resolve, reject) => {
    pdf.on('end', () => resolve());
    pdf.on('error', reject);
  });

  const drawBlock = (node: Node, indent: number, bullet?: string): void => {
    const options = { indent };
    switch (node.type) {
      case 'heading-1':
      case 'heading-2':
      case 'heading-3':
        pdf.moveDown(0.5).font('Helvetica-Bold').fontSize({ 'heading-1': 18, 'heading-2': 15, 'heading-3': 13 }[node.type]).text(plain(node), options);
        pdf.font('Helvetica').fontSize(11);
        break;
      case 'paragraph':
        pdf.font('Helvetica').fontSize(11).text(`${bullet ?? ''}${plain(node)}`, options).moveDown(0.3);
        break;
      case 'list-ordered':
      case 'list-unordered':
      case 'list-tasks':
        blocksOf(node).forEach((item, index) => {
          const mark = node.type === 'list-ordered' ? `${index + 1}. ` : node.type === 'list-tasks' ? (item.data?.checked ? '[x] ' : '[ ] ') : '• ';
          blocksOf(item).forEach((child, childIndex) => drawBlock(child, indent + 14, childIndex === 0 ? mark : undefined));
        });
        break;
      case 'blockquote':
      case 'hint':
        blocksOf(node).forEach((child) => drawBlock(child, indent + 18));
        break;
      case 'code':
        pdf.font('Courier').fontSize(9.5);
        for (const line of blocksOf(node)) pdf.text(plain(line) || ' ', { indent: indent + 10 });
        pdf.font('Helvetica').fontSize(11).moveDown(0.3);
        break;
      case 'divider':
        pdf.moveDown(0.3).moveTo(pdf.page.margins.left, pdf.y).lineTo(pdf.page.width - pdf.page.margins.right, pdf.y).stroke().moveDown(0.3);
        break;
      case 'images':
        for (const image of blocksOf(node)) {
          const ref = image.data?.ref as { kind?: string; file?: string } | undefined;
          const bytes = ref?.kind === 'file' && ref.file ? images(ref.file) : undefined;
          if (bytes) {
            try {
              pdf.image(bytes, { fit: [pdf.page.width - 112, 300] }).moveDown(0.3);
              continue;
            } catch {
              // Not a format pdfkit draws: fall back to the caption below.
            }
          }
          pdf.font('Helvetica-Oblique').text(`[image: ${plain(image) || String(image.data?.alt ?? '')}]`, options).font('Helvetica');
        }
        break;
      case 'table': {
        const data = node.data as { view?: { columns?: string[] }; definition?: Record<string, { title?: string }>; records?: Record<string, { orderIndex: string; values: Record<string, unknown> }> };
        const fragments = new Map((node.fragments ?? []).map((fragment) => [fragment.fragment, fragment]));
        const columns = data.view?.columns ?? [];
        const cell = (value: unknown) => {
          const fragment = typeof value === 'string' ? fragments.get(value) : undefined;
          if (fragment) return plainText(fragment).replace(/\n/g, ' ');
          const ref = value && typeof value === 'object' ? (value as { url?: string; file?: string }) : undefined;
          return ref?.url ?? ref?.file ?? (Array.isArray(value) ? value.join(', ') : '');
        };
        pdf.font('Helvetica-Bold').text(columns.map((column) => data.definition?.[column]?.title ?? '').join(' | '), options).font('Helvetica');
        for (const [, record] of orderedRecords(data.records)) pdf.text(columns.map((column) => cell(record.values[column])).join(' | '), options);
        pdf.moveDown(0.3);
        break;
      }
      case 'math':
        pdf.font('Courier').fontSize(10).text(String(node.data?.formula ?? ''), { indent: indent + 10 }).font('Helvetica').fontSize(11).moveDown(0.3);
        break;
      default: {
        const title = label(node);
        if (title) pdf.font('Helvetica-Bold').fontSize(11).text(title, options).font('Helvetica');
        const children = [...blocksOf(node), ...(node.fragments ?? []).flatMap((fragment) => fragment.nodes)];
        if (children.length > 0) children.forEach((child) => drawBlock(child, indent + 12));
        else if (node.nodes?.length) pdf.text(plain(node), options);
      }
    }
  };

  pages.forEach((page, index) => {
    if (index > 0) pdf.addPage();
    pdf.font('Helvetica-Bold').fontSize(22).text(page.title).moveDown(0.5).font('Helvetica').fontSize(11);
    for (const block of page.document.nodes) drawBlock(block as Node, 0);
  });
  pdf.end();
  return done;
}
