// Icons by Font Awesome's names (src/lib/icons.ts), drawn from Font Awesome Free, and the
// app's search over them (IconPicker's findIcons).
import { describe, expect, it } from 'vitest';
import { iconIndexJson, iconShape, iconSvg } from '../../src/lib/icons.ts';
import { findIcons } from '../../web/src/features/pages/components/iconSearch.ts';

describe('icons', () => {
  it("draws a name from the regular style where Free has it, else the solid or the brands'", () => {
    const regular = iconSvg('bell')!;
    const rocket = iconShape('rocket')!;
    expect(regular).toContain('<svg');
    expect(rocket.viewBox).toMatch(/^0 0 \d+ \d+$/);
    expect(rocket.paths.length).toBeGreaterThan(0);
    expect(iconShape('github')!.paths.length).toBeGreaterThan(0);
  });

  it('finds nothing for a name Free has not, and never reads outside its icons', () => {
    for (const name of ['rocket-launch-pro-only', '../package', 'Rocket', 'rocket.svg', '', 'a'.repeat(65), 'x/../../y']) expect(iconSvg(name), name).toBeUndefined();
  });

  it('finds icons by name first, then by label, then by the words Font Awesome gives them', () => {
    const icons = JSON.parse(iconIndexJson()) as Array<{ name: string; label: string; terms: string[] }>;
    const found = findIcons(icons, 'rocket').map((icon) => icon.name);
    expect(found[0]).toBe('rocket');
    // "launch" is one of the rocket's search terms, not in its name.
    expect(findIcons(icons, 'launch').map((icon) => icon.name)).toContain('rocket');
    expect(findIcons(icons, 'qqqzzz')).toEqual([]);
    expect(findIcons(icons, '  ')).toHaveLength(icons.length);
  });
});
