// The code of a change request's writing, loaded when someone edits: by the screen as
// it shows the editor, and ahead by the route of an address with `?edit`.
export const loadPageEditor = () => import('../../../editor/PageEditor.tsx');
export const loadEditablePageTree = () => import('../../pages/components/EditablePageTree.tsx');
