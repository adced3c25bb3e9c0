// The customization form's unsaved values shown in the preview frame as they are
// chosen: the main colour (shaded for contrast as the reader shades it, themeOf), the
// corners and the announcement, which is what the reader draws of them. The frame is
// the site served by Quire at its own origin, so the app reaches into it; its CSP allows
// no inline style, so values go through the CSSOM and the DOM, never markup. A frame
// of another origin (the app opened at another host name) keeps showing what is saved.
import { themeOf } from '../../../../../src/reader/theme.ts';

export interface PreviewValues {
  primaryLight: string;
  primaryDark: string;
  corners: string;
  announcement: boolean;
  message: string;
  announcementStyle: string;
}

const RADIUS: Record<string, string> = { straight: '0', rounded: '6px', circular: '14px' };

/** The frame's page, when the app may reach into it. */
function pageOf(frame: HTMLIFrameElement | null): Document | undefined {
  try {
    return frame?.contentDocument?.body ? frame.contentDocument : undefined;
  } catch {
    return undefined;
  }
}

/** Whether unsaved values can be shown in the frame. */
export const canShowUnsaved = (frame: HTMLIFrameElement | null): boolean => pageOf(frame) !== undefined;

/** Applies the values to the preview frame's page; false when the frame cannot be reached. */
export function showInPreview(frame: HTMLIFrameElement | null, values: PreviewValues): boolean {
  const page = pageOf(frame);
  if (!page) return false;
  const theme = themeOf({ styling: { primaryColor: { light: values.primaryLight, dark: values.primaryDark }, corners: values.corners } });
  const dark = page.defaultView?.matchMedia('(prefers-color-scheme: dark)').matches ?? false;
  page.documentElement.style.setProperty('--accent', dark ? theme.primary.dark : theme.primary.light);
  page.documentElement.style.setProperty('--radius', RADIUS[theme.corners]);

  const shown = page.querySelector<HTMLElement>('.announcement');
  const message = values.message.trim().slice(0, 500);
  if (!values.announcement || !message) {
    shown?.remove();
    return true;
  }
  const banner = shown ?? page.createElement('div');
  if (!shown) {
    banner.setAttribute('role', 'region');
    banner.setAttribute('aria-label', 'Announcement');
    page.body.prepend(banner);
  }
  banner.className = `announcement announcement-${values.announcementStyle}`;
  // Its words alone: a saved announcement's link comes back when the frame reloads after saving.
  const paragraph = page.createElement('p');
  paragraph.textContent = message;
  banner.replaceChildren(paragraph);
  return true;
}
