// Colours of outlined marks and notices that keep AA contrast in both themes: the
// darkest shade on light, a light one on dark (Mantine sets the page's color-scheme).
export const TONES = {
  success: 'light-dark(var(--mantine-color-teal-9), var(--mantine-color-teal-3))',
  notice: 'light-dark(var(--mantine-color-indigo-9), var(--mantine-color-indigo-3))',
  danger: 'light-dark(var(--mantine-color-red-9), var(--mantine-color-red-3))',
};
