// The code of a change request's writing, loaded when someone edits: by the screen as
// it shows the editor, and ahead by the route of an address with `?edit`.
import { loadable } from '../../../components/loadable.tsx';

export const pageEditor = loadable(async () => (await import('../../../editor/PageEditor.tsx')).PageEditor);
export const reusableContentEditor = loadable(async () => (await import('../../../editor/PageEditor.tsx')).ReusableContentEditor);
export const editablePageTree = loadable(async () => (await import('../../pages/components/EditablePageTree.tsx')).EditablePageTree);
