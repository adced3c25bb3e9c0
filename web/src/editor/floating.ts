// Where the editor's floating menus and bars stand (the slash menu, suggestions, the
// selection's formatting bar, a link's bar): fixed to the window beside a place in the
// page, kept inside its edges, and placed again as the window resizes or anything scrolls.
import { useLayoutEffect } from 'react';

export interface Place {
  top: number;
  left: number;
}

const EDGE = 8;

/** Left of `left`, moved in so that an element `width` wide stays inside the window. */
export const insideWindow = (left: number, width: number): number => Math.max(EDGE, Math.min(left, window.innerWidth - width - EDGE));

/** Below a caret's (or box's) coordinates, or above them when the element would leave the window below and fits above. */
export function besideCaret(caret: { top: number; bottom: number; left: number }, element: HTMLElement | null, gap = 4): Place {
  const width = element?.offsetWidth ?? 320;
  const height = element?.offsetHeight ?? 0;
  const below = caret.bottom + gap;
  const top = below + height > window.innerHeight - EDGE && caret.top - height - gap > EDGE ? caret.top - height - gap : below;
  return { top, left: insideWindow(caret.left, width) };
}

/** Runs `place` while `shown`, and again whenever the window resizes or anything in it scrolls. */
export function usePlaced(place: () => void, shown: boolean, dependencies: readonly unknown[]): void {
  useLayoutEffect(() => {
    if (!shown) return;
    place();
    window.addEventListener('resize', place);
    window.addEventListener('scroll', place, true);
    return () => {
      window.removeEventListener('resize', place);
      window.removeEventListener('scroll', place, true);
    };
    // `place` is made anew each render; what it reads is in `dependencies`.
  }, [shown, ...dependencies]);
}
