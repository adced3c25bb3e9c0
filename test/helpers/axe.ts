import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { JSDOM, VirtualConsole } from 'jsdom';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The accessibility violations axe-core finds in a page (colour contrast aside: jsdom lays nothing out). */
export async function axeViolations(html: string): Promise<Array<{ id: string; help: string; nodes: string[] }>> {
  // jsdom has no canvas, which axe asks for once: a known gap, not a finding about the page.
  const virtualConsole = new VirtualConsole();
  const dom = new JSDOM(html, { runScripts: 'outside-only', pretendToBeVisual: true, virtualConsole });
  dom.window.eval(axeSource);
  const axe = (dom.window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: Array<{ id: string; help: string; nodes: Array<{ html: string }> }> }> } }).axe;
  const result = await axe.run(dom.window.document, { rules: { 'color-contrast': { enabled: false } } });
  dom.window.close();
  return result.violations.map((violation) => ({ id: violation.id, help: violation.help, nodes: violation.nodes.map((node) => node.html) }));
}
