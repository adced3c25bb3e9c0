// The reader highlights code on the server. Candidates, each turning the same code into
// hast and then HTML (the reader's one path): lowlight (highlight.js grammars, which the
// reader uses) and shiki (TextMate grammars, as GitBook's renderer and editors use),
// with its default Oniguruma engine. Real files of this repository and its
// dependencies, in six languages, median of 9 runs, each candidate against the other.
import { readFileSync } from 'node:fs';
import type { Root } from 'hast';
import { toHtml } from 'hast-util-to-html';
import { common, createLowlight } from 'lowlight';
import { createHighlighter } from 'shiki';

export interface HighlightResult {
  lines: number;
  /** Median milliseconds to highlight every sample once. */
  lowlightMs: number;
  shikiMs: number;
}

const SAMPLES: Array<{ lang: string; path: string }> = [
  { lang: 'typescript', path: '../src/reader/render.ts' },
  { lang: 'javascript', path: '../node_modules/kysely/dist/esm/query-builder/select-query-builder.js' },
  { lang: 'json', path: '../package.json' },
  { lang: 'bash', path: '../.ci/run' },
  { lang: 'css', path: '../node_modules/katex/dist/katex.css' },
  { lang: 'yaml', path: '../node_modules/@gitbook/api/spec/openapi.yaml' },
];

/** About this many lines of each language. */
const LINES = 400;

function median(samples: number[]): number {
  return [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)];
}

export async function benchHighlight(times = 9): Promise<HighlightResult> {
  const code = SAMPLES.map(({ lang, path }) => ({ lang, text: readFileSync(new URL(path, import.meta.url), 'utf8').split('\n').slice(0, LINES).join('\n') }));
  const lowlight = createLowlight(common);
  const shiki = await createHighlighter({ themes: ['github-light', 'github-dark'], langs: SAMPLES.map((sample) => sample.lang) });
  const candidates: Record<'lowlight' | 'shiki', (lang: string, text: string) => string> = {
    lowlight: (lang, text) => toHtml(lowlight.highlight(lang, text)),
    shiki: (lang, text) => toHtml(shiki.codeToHast(text, { lang, themes: { light: 'github-light', dark: 'github-dark' } }) as Root),
  };
  const timings = { lowlight: [] as number[], shiki: [] as number[] };
  for (let round = 0; round < times; round++) {
    for (const name of ['lowlight', 'shiki'] as const) {
      const started = performance.now();
      for (const sample of code) candidates[name](sample.lang, sample.text);
      timings[name].push(performance.now() - started);
    }
  }
  shiki.dispose();
  return {
    lines: code.reduce((sum, sample) => sum + sample.text.split('\n').length, 0),
    lowlightMs: median(timings.lowlight),
    shikiMs: median(timings.shiki),
  };
}
