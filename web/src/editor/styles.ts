// The editor's look: the schema renders GitBook's kinds as plain tags with their
// names (data-type), so blocks the first slice does not draw yet (hints, tabs, embeds…)
// and kept-whole opaque nodes show as outlined boxes that say what they are.
export const EDITOR_CLASS = 'quire-editor';

export const editorStylesheet = `
.${EDITOR_CLASS} { min-height: 12rem; padding: 0.75rem 1rem; border: 1px solid var(--mantine-color-default-border); border-radius: var(--mantine-radius-md); line-height: 1.6; overflow-wrap: anywhere; }
.${EDITOR_CLASS}:focus-visible { outline: 2px solid var(--mantine-primary-color-filled); outline-offset: 2px; }
.${EDITOR_CLASS} > :first-child { margin-top: 0; }
.${EDITOR_CLASS} blockquote { margin: 0.5rem 0; padding-left: 1rem; border-left: 3px solid var(--mantine-color-default-border); }
.${EDITOR_CLASS} pre { padding: 0.5rem 0.75rem; border-radius: var(--mantine-radius-sm); background: var(--mantine-color-default-hover); font-family: var(--mantine-font-family-monospace); white-space: pre-wrap; }
.${EDITOR_CLASS} pre > [data-type="codeLine"] { display: block; min-height: 1.6em; }
.${EDITOR_CLASS} [data-type="divider"] { margin: 1rem 0; border-top: 1px solid var(--mantine-color-default-border); }
.${EDITOR_CLASS} [data-mark="bold"] { font-weight: 700; }
.${EDITOR_CLASS} [data-mark="italic"] { font-style: italic; }
.${EDITOR_CLASS} [data-mark="strikethrough"] { text-decoration: line-through; }
.${EDITOR_CLASS} [data-mark="code"], .${EDITOR_CLASS} [data-mark="keyboard"] { font-family: var(--mantine-font-family-monospace); font-size: 0.9em; padding: 0 0.2em; border-radius: 3px; background: var(--mantine-color-default-hover); }
.${EDITOR_CLASS} div[data-type]:not([data-type="fragment"]):not([data-type="codeLine"]) { margin: 0.5rem 0; padding: 0.25rem 0.5rem; border: 1px dashed var(--mantine-color-default-border); border-radius: var(--mantine-radius-sm); }
.${EDITOR_CLASS} div[data-type]:not([data-type="fragment"]):not([data-type="divider"]):empty::before { content: attr(data-type); color: var(--mantine-color-dimmed); font-size: 0.85em; }
.${EDITOR_CLASS} div[data-type="divider"] { border-style: solid none none; border-radius: 0; padding: 0; }
.${EDITOR_CLASS} span[data-type="opaqueInline"]::before { content: "…"; color: var(--mantine-color-dimmed); }
.${EDITOR_CLASS} .ProseMirror-selectednode { outline: 2px solid var(--mantine-primary-color-filled); }
.quire-caret-option { padding: 0.3rem 0.6rem; border-radius: var(--mantine-radius-sm); cursor: pointer; }
.quire-caret-option[data-active] { background: var(--mantine-primary-color-light); }
`;
