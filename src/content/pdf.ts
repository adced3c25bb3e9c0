// Renders pages as a PDF with pdfkit: titles, headings, paragraphs, lists, quotes,
// code, dividers, tables as rows of text, and images from the revision's files.
import PDFDocument from 'pdfkit';
import type { JSONDocument } from './document.ts';

export interface PdfPage {
  title: string;
  document: JSONDocument;
}

type Node = { object: string; type?: string; nodes?: Node[]; leaves?: Array<{ text: string }>; data?: Record<string, unknown> };

function plain(node: Node): string {
  if (node.object === 'text') return (node.leaves ?? []).map((leaf) => leaf.text).join('');
  return (node.nodes ?? []).map(plain).join('');
}

/** Image bytes by file id, for images the pages show (PNG and JPEG can be drawn). */
export type ImageLookup = (fileId: string) => Buffer | undefined;

/** Writes the PDF of `pages` to `onChunk` as pdfkit makes it, a chunk at a time. */
export function writePdf(pages: PdfPage[], images: ImageLookup, onChunk: (chunk: Buffer) => void): Promise<void> {
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
        (node.nodes ?? []).forEach((item, index) => {
          const mark = node.type === 'list-ordered' ? `${index + 1}. ` : node.type === 'list-tasks' ? (item.data?.checked ? '[x] ' : '[ ] ') : '• ';
          (item.nodes ?? []).forEach((child, childIndex) => drawBlock(child, indent + 14, childIndex === 0 ? mark : undefined));
        });
        break;
      case 'blockquote':
      case 'hint':
        (node.nodes ?? []).forEach((child) => drawBlock(child, indent + 18));
        break;
      case 'code':
        pdf.font('Courier').fontSize(9.5);
        for (const line of node.nodes ?? []) pdf.text(plain(line) || ' ', { indent: indent + 10 });
        pdf.font('Helvetica').fontSize(11).moveDown(0.3);
        break;
      case 'divider':
        pdf.moveDown(0.3).moveTo(pdf.page.margins.left, pdf.y).lineTo(pdf.page.width - pdf.page.margins.right, pdf.y).stroke().moveDown(0.3);
        break;
      case 'images':
        for (const image of node.nodes ?? []) {
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
          pdf.font('Helvetica-Oblique').text(`[image: ${String(image.data?.caption ?? '')}]`, options).font('Helvetica');
        }
        break;
      case 'table': {
        const data = node.data as { view?: { columns?: string[] }; definition?: Record<string, { title: Node[] }>; records?: Record<string, { values: Record<string, Node[]> }> };
        const columns = data.view?.columns ?? [];
        const cells = (values: Node[] | undefined) => (values ?? []).map(plain).join('');
        pdf.font('Helvetica-Bold').text(columns.map((column) => cells(data.definition?.[column]?.title)).join(' | '), options).font('Helvetica');
        for (const record of Object.values(data.records ?? {})) pdf.text(columns.map((column) => cells(record.values[column])).join(' | '), options);
        pdf.moveDown(0.3);
        break;
      }
      default:
        if (node.nodes?.length) pdf.text(plain(node), options);
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
