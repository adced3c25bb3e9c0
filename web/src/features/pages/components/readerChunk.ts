// What rendering a page needs, loaded as its own chunk the first time a page is shown:
// the published site's renderer (src/reader/render.ts: hast, KaTeX, lowlight) and stylesheet.
export { loadRenderers, renderDocument, type RenderContext } from '../../../../../src/reader/render.ts';
export { READER_CLASS, readerStylesheet } from './readerStyles.ts';
