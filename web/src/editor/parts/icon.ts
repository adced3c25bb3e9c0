// GitBook's `icon` inline (data.icon, a Font Awesome name; `<i class="fa-rocket">` in its
// markdown): drawn as the reader and the app's trees draw icons, Font Awesome Free's
// drawing as a mask in the text's colour, named for screen readers. Kept as it is; a
// name Free has not (a Pro icon) draws an empty space of its size.
import type { NodeViewRenderer } from '@tiptap/core';
import type { EditorPart } from '../part.ts';
import { iconUrl } from '../references.ts';

const iconView: NodeViewRenderer = ({ node }) => {
  const name = String(node.attrs.data?.icon ?? '');
  const dom = document.createElement('span');
  dom.className = 'quire-icon';
  dom.dataset.type = 'icon';
  dom.setAttribute('role', 'img');
  dom.setAttribute('aria-label', `${name.replace(/-/g, ' ')} icon`);
  if (name) dom.style.setProperty('--icon', `url("${iconUrl(name)}")`);
  return { dom };
};

export const part: EditorPart = {
  order: 62,
  views: { icon: iconView },
  styles: `
.quire-editor .quire-icon { display: inline-block; width: 1em; height: 1em; vertical-align: -0.125em; background-color: currentColor; mask: var(--icon) center / contain no-repeat; -webkit-mask: var(--icon) center / contain no-repeat; }
`,
};
