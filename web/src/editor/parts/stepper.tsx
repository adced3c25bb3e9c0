// GitBook's stepper: numbered `stepper-step`s, each holding blocks. Each step shows its
// number and, while there are others, a button to remove it; a button under the last
// adds a step.
import { NodeViewContent, NodeViewWrapper, ReactNodeViewRenderer, type NodeViewProps } from '@tiptap/react';
import type { EditorPart } from '../part.ts';
import { EDITOR_CLASS } from '../styles.ts';
import { controlsOwnTheirEvents, insertBlock, placeCursorIn } from './containers.ts';

function StepperView({ node, editor, getPos }: NodeViewProps) {
  const add = () => {
    const { stepperStep, paragraph } = editor.schema.nodes;
    const at = (getPos() ?? 0) + node.nodeSize - 1;
    placeCursorIn(editor, editor.state.tr.insert(at, stepperStep.create({ data: {} }, paragraph.create())), at);
  };
  return (
    <NodeViewWrapper className="quire-stepper">
      <NodeViewContent className="quire-stepper-content" />
      <div contentEditable={false} data-controls className="quire-stepper-add">
        <button type="button" onClick={add}>
          + Add a step
        </button>
      </div>
    </NodeViewWrapper>
  );
}

function StepView({ node, editor, getPos }: NodeViewProps) {
  const remove = () => {
    const at = getPos();
    if (at === undefined) return;
    placeCursorIn(editor, editor.state.tr.delete(at, at + node.nodeSize), Math.max(0, at - 1));
  };
  return (
    <NodeViewWrapper className="quire-step">
      <span contentEditable={false} className="quire-step-number" aria-hidden="true" />
      <NodeViewContent className="quire-step-content" />
      <div contentEditable={false} data-controls className="quire-step-remove">
        <button type="button" aria-label="Remove this step" title="Remove this step" onClick={remove}>
          ×
        </button>
      </div>
    </NodeViewWrapper>
  );
}

export const part: EditorPart = {
  views: {
    stepper: ReactNodeViewRenderer(StepperView, { stopEvent: controlsOwnTheirEvents }),
    stepperStep: ReactNodeViewRenderer(StepView, { stopEvent: controlsOwnTheirEvents }),
  },
  slash: [
    {
      title: 'Stepper',
      description: 'Numbered steps, each holding blocks.',
      keywords: ['steps', 'step', 'procedure', 'how-to', 'numbered'],
      group: 'Blocks',
      insert: (editor, range) => {
        const { stepper, stepperStep, paragraph } = editor.schema.nodes;
        insertBlock(editor, range, stepper.create({ data: {} }, [stepperStep.create({ data: {} }, paragraph.create())]));
      },
    },
  ],
  styles: `
.${EDITOR_CLASS} .quire-stepper { margin: 0.75rem 0; }
.${EDITOR_CLASS} .quire-stepper-content > [data-node-view-content-react] { counter-reset: quire-step; }
.${EDITOR_CLASS} .quire-step { position: relative; display: flex; gap: 0.75rem; counter-increment: quire-step; }
.${EDITOR_CLASS} .quire-step-number::before { content: counter(quire-step); display: inline-flex; align-items: center; justify-content: center; width: 1.75rem; height: 1.75rem; border-radius: 50%; background: var(--mantine-primary-color-light); color: var(--mantine-primary-color-light-color); font-weight: 700; font-size: var(--mantine-font-size-sm); }
.${EDITOR_CLASS} .quire-step-number { position: relative; flex: none; display: flex; flex-direction: column; align-items: center; }
.${EDITOR_CLASS} .node-stepperStep:not(:last-child) .quire-step-number::after { content: ""; flex: 1; width: 2px; margin: 0.25rem 0; background: var(--mantine-color-default-border); }
.${EDITOR_CLASS} .quire-step-content { flex: 1; min-width: 0; padding-bottom: 0.5rem; }
.${EDITOR_CLASS} .quire-step-content p { margin: 0.15rem 0 0.5rem; }
.${EDITOR_CLASS} .node-stepperStep:only-child .quire-step-remove { display: none; }
.${EDITOR_CLASS} .quire-step-remove button, .${EDITOR_CLASS} .quire-stepper-add button { border: 0; border-radius: var(--mantine-radius-xs); background: none; color: var(--mantine-color-dimmed); cursor: pointer; font: inherit; }
.${EDITOR_CLASS} .quire-step-remove button { width: 1.75rem; height: 1.75rem; font-size: 1.1rem; }
.${EDITOR_CLASS} .quire-stepper-add button { padding: 0.15rem 0.5rem; font-size: var(--mantine-font-size-sm); }
.${EDITOR_CLASS} .quire-step-remove button:hover, .${EDITOR_CLASS} .quire-stepper-add button:hover { background: var(--mantine-color-default-hover); color: var(--mantine-color-text); }
.${EDITOR_CLASS} .quire-step-remove button:focus-visible, .${EDITOR_CLASS} .quire-stepper-add button:focus-visible { outline: 2px solid var(--mantine-primary-color-filled); }
`,
};
