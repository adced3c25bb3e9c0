// The version of what markdown reads as (fromMarkdown.ts). Documents are stored by their
// markdown's hash (services/pageDocuments.ts) and made again where an earlier version
// stored them, and a space an earlier version indexed is indexed anew
// (services/search.ts), so it moves with every change that reads some markdown as
// another document: in fromMarkdown.ts, model.ts or tags.ts, or in the parser's
// packages. The corpus test (test/unit/gitbook.test.ts) fails until it has moved. A
// module of its own: the server reads it without loading the parser.
export const DOCUMENT_CONVERSION = 20;
