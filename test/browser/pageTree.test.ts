// Editing the page tree of a change request in the app, as GitBook does: adding pages,
// groups and links, renaming inline, moving by drag and by keyboard, deleting, and each
// page's settings; every change checked through the API, which holds exactly that tree.
// A reader of the space is shown no editing control.
import type { Locator, Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { describeInBrowser, expectAccessible, PHONE, screenshot, useBrowser, watchPolicy } from '../helpers/browser.ts';
import { openEditor, seedSpace, setUpOrganization, type Api } from '../helpers/writing.ts';
import { runCli } from '../helpers/process.ts';
import type { BrowserContext } from 'playwright-core';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

interface Writing {
  page: Page;
  space: string;
  number: string;
  /** The change request's pages, each line a title indented by its depth. */
  outline(): Promise<string[]>;
  /** The change request's page of that title, as the API gives it. */
  pageTitled(title: string): Promise<any>;
}

/** Indented titles, depth first: a tree that reads at a glance. */
const outlineOf = (pages: any[], depth = 0): string[] => pages.flatMap((page) => [`${'  '.repeat(depth)}${page.title}`, ...outlineOf(page.pages ?? [], depth + 1)]);
const find = (pages: any[], title: string): any => pages.map((page) => (page.title === title ? page : find(page.pages ?? [], title))).find(Boolean);

describeInBrowser('editing the page tree of a change request', () => {
  const harness = useBrowser();
  let context: BrowserContext;
  let organizationId: string;
  let api: Api;
  let spaces = 0;

  beforeAll(async () => {
    ({ context, organizationId, api } = await setUpOrganization(harness));
  }, 60_000);

  /** A space of Guide, Install and Reference, with the editor open on Guide in the admin's change request. */
  async function startWriting(): Promise<Writing> {
    const { space } = await seedSpace(api, organizationId, `Handbook ${++spaces}`, ['# Guide\n\nWelcome.', '# Install\n\nSteps.', '# Reference\n\nAll of it.']);
    const page = await context.newPage();
    const number = await openEditor(page, space, 'guide');
    await expect.poll(() => tree(page).getByRole('link', { name: 'Reference' }).isVisible(), { timeout: 10_000 }).toBe(true);
    const pages = async () => (await api('GET', `/v1/spaces/${space}/change-requests/${number}/content`)).body.pages;
    return { page, space, number, outline: async () => outlineOf(await pages()), pageTitled: async (title) => find(await pages(), title) };
  }

  const tree = (page: Page): Locator => page.getByRole('navigation', { name: 'Pages' });
  const row = (page: Page, title: string): Locator => tree(page).locator('li').filter({ has: page.getByText(title, { exact: true }) });
  const actions = async (page: Page, title: string, action: string) => {
    await tree(page).getByRole('button', { name: `Actions for ${title}` }).click();
    await page.getByRole('menu', { name: `Actions for ${title}` }).getByRole('menuitem', { name: action }).click();
    await expect.poll(() => page.getByRole('menu').count()).toBe(0);
  };
  const nameNew = async (page: Page, was: string, title: string) => {
    const input = tree(page).getByRole('textbox', { name: `Title of ${was}` });
    await input.fill(title);
    await input.press('Enter');
  };
  const announced = (page: Page) => tree(page).locator('[aria-live="polite"]');

  it('adds a page at the bottom, a page inside another, a group and a link, naming each new one in place', async () => {
    const { page, outline, pageTitled } = await startWriting();
    const policyKept = watchPolicy(page);

    await tree(page).getByRole('button', { name: '+ Add page' }).click();
    await nameNew(page, 'Untitled', 'Setup');
    await expect.poll(outline, { timeout: 10_000 }).toEqual(['Guide', 'Install', 'Reference', 'Setup']);
    expect(await pageTitled('Setup')).toMatchObject({ type: 'document', slug: 'setup', path: 'setup' });

    await actions(page, 'Guide', 'Add page inside');
    await nameNew(page, 'Untitled', 'Basics');
    await expect.poll(outline, { timeout: 10_000 }).toEqual(['Guide', '  Basics', 'Install', 'Reference', 'Setup']);
    expect((await pageTitled('Basics')).path).toBe('guide/basics');

    await actions(page, 'Reference', 'Add group below');
    await nameNew(page, 'Untitled group', 'More');
    await expect.poll(outline, { timeout: 10_000 }).toEqual(['Guide', '  Basics', 'Install', 'Reference', 'More', 'Setup']);
    expect((await pageTitled('More')).type).toBe('group');

    await tree(page).getByRole('button', { name: '+ Add link' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a link' });
    await dialog.getByRole('textbox', { name: 'Title' }).fill('GitHub');
    await dialog.getByRole('textbox', { name: 'URL' }).fill('javascript:alert(1)');
    await dialog.getByRole('button', { name: 'Add link' }).click();
    await expect.poll(() => dialog.getByText(/Give a path such as \/guide, or a URL of http, https/).isVisible()).toBe(true);
    await dialog.getByRole('textbox', { name: 'URL' }).fill('https://github.com/acme');
    await dialog.getByRole('button', { name: 'Add link' }).click();
    await expect.poll(outline, { timeout: 10_000 }).toEqual(['Guide', '  Basics', 'Install', 'Reference', 'More', 'Setup', 'GitHub']);
    expect(await pageTitled('GitHub')).toMatchObject({ type: 'link', href: 'https://github.com/acme' });

    await expect.poll(() => tree(page).getByRole('link', { name: /GitHub/ }).isVisible()).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'tree/page-tree');
    await tree(page).getByRole('button', { name: 'Actions for Guide' }).click();
    await expect.poll(() => page.getByRole('menu', { name: 'Actions for Guide' }).isVisible()).toBe(true);
    await screenshot(page, 'tree/row-menu');
    await page.keyboard.press('Escape');
    // In the dark theme too (the choice is this browser's: it is set back for the other tests).
    await page.getByRole('button', { name: 'Switch to the dark theme' }).click();
    await actions(page, 'Setup', 'Page settings');
    await expectAccessible(page);
    await screenshot(page, 'tree/page-tree-dark');
    await page.getByRole('dialog', { name: 'Settings of “Setup”' }).getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Switch to the light theme' }).click();
    policyKept();
  });

  it('renames inline: Enter saves and the address of the open page follows its new name; Escape leaves the title as it was', async () => {
    const { page, outline, pageTitled } = await startWriting();
    await actions(page, 'Guide', 'Rename');
    await nameNew(page, 'Guide', 'Getting started');
    await expect.poll(outline, { timeout: 10_000 }).toEqual(['Getting started', 'Install', 'Reference']);
    expect(await pageTitled('Getting started')).toMatchObject({ slug: 'getting-started', path: 'getting-started' });
    await expect.poll(() => new URL(page.url()).pathname + new URL(page.url()).search, { timeout: 10_000 }).toMatch(/\/changes\/\d+\/getting-started\?edit$/);
    await expect.poll(() => page.getByRole('textbox', { name: /the page's content/ }).isVisible()).toBe(true);

    await actions(page, 'Install', 'Rename');
    const input = tree(page).getByRole('textbox', { name: 'Title of Install' });
    await input.fill('Never mind');
    await input.press('Escape');
    await expect.poll(() => tree(page).getByRole('link', { name: 'Install' }).isVisible()).toBe(true);
    await page.waitForTimeout(500);
    expect(await outline()).toEqual(['Getting started', 'Install', 'Reference']);
  });

  it('moves a page by drag above another and inside another, showing where it will land', async () => {
    const { page, outline } = await startWriting();
    // Dragged over the upper edge of Install, Reference shows it lands above.
    const reference = row(page, 'Reference');
    const install = row(page, 'Install');
    const from = (await reference.boundingBox())!;
    const to = (await install.boundingBox())!;
    await page.mouse.move(from.x + 40, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(to.x + 40, to.y + 6, { steps: 5 });
    await page.mouse.move(to.x + 41, to.y + 4, { steps: 2 });
    await expect.poll(() => install.getAttribute('data-drop')).toBe('before');
    // At desktop size only: a phone's width folds the pages away, which would end the drag.
    await page.screenshot({ path: '/tmp/screens/tree/drag-indicator-desktop.png' });
    await page.mouse.up();
    await expect.poll(outline, { timeout: 10_000 }).toEqual(['Guide', 'Reference', 'Install']);

    // Dropped on the middle of Guide, Install goes inside it.
    await row(page, 'Install').dragTo(row(page, 'Guide'), { targetPosition: { x: 60, y: 17 } });
    await expect.poll(outline, { timeout: 10_000 }).toEqual(['Guide', '  Install', 'Reference']);
    // Dropped below Reference, it comes out again, last.
    await row(page, 'Install').dragTo(row(page, 'Reference'), { targetPosition: { x: 60, y: 31 } });
    await expect.poll(outline, { timeout: 10_000 }).toEqual(['Guide', 'Reference', 'Install']);
  });

  it('moves the focused page with Alt-Shift-Arrow keys: up and down among its siblings, right into the page above, left out again, and says where it went', async () => {
    const { page, outline } = await startWriting();
    await tree(page).getByRole('link', { name: 'Reference' }).focus();
    await page.keyboard.press('Alt+Shift+ArrowUp');
    await expect.poll(outline, { timeout: 10_000 }).toEqual(['Guide', 'Reference', 'Install']);
    await expect.poll(() => announced(page).textContent()).toBe('Reference moved: 2 of 3 at the top level.');

    // The moved page keeps the focus, so the keys go on moving it.
    await page.keyboard.press('Alt+Shift+ArrowRight');
    await expect.poll(outline, { timeout: 10_000 }).toEqual(['Guide', '  Reference', 'Install']);
    await expect.poll(() => announced(page).textContent()).toBe('Reference moved: 1 of 1 in Guide.');

    await page.keyboard.press('Alt+Shift+ArrowLeft');
    await expect.poll(outline, { timeout: 10_000 }).toEqual(['Guide', 'Reference', 'Install']);
    // The tree has read the change back before the next move.
    await expect.poll(() => tree(page).locator('[aria-busy="true"]').count()).toBe(0);
    await page.keyboard.press('Alt+Shift+ArrowDown');
    await expect.poll(outline, { timeout: 10_000 }).toEqual(['Guide', 'Install', 'Reference']);
    await expect.poll(() => announced(page).textContent()).toBe('Reference moved: 3 of 3 at the top level.');
    await page.keyboard.press('Alt+Shift+ArrowDown');
    await expect.poll(() => announced(page).textContent()).toBe('Reference cannot move that way.');
  });

  it("on a phone, moves a page from its row's menu, taking a free slug among its new siblings, and changes where a link leads from its settings", async () => {
    const { page, space, number, outline, pageTitled } = await startWriting();
    const install = (await pageTitled('Install')).id;
    const added = await api('POST', `/v1/spaces/${space}/change-requests/${number}/content`, {
      changes: [
        { operation: 'insert_page', type: 'link', title: 'GitHub', href: 'https://github.com/acme' },
        { operation: 'insert_page', into: install, title: 'Ref', slug: 'reference', document: '' },
      ],
    });
    expect(added.status).toBe(200);
    await page.setViewportSize(PHONE);
    await page.reload();
    // On a phone the pages are folded above the page being written.
    await page.getByRole('button', { name: 'Pages', exact: true }).click();
    await expect.poll(() => tree(page).getByRole('link', { name: 'Reference' }).isVisible(), { timeout: 10_000 }).toBe(true);
    await page.screenshot({ path: '/tmp/screens/tree/phone-pages-open.png', fullPage: true });
    // Install holds a page whose slug is reference already: the page moved in takes the next free one.
    await actions(page, 'Reference', 'Move into the page above');
    await expect.poll(outline, { timeout: 10_000 }).toEqual(['Guide', 'Install', '  Ref', '  Reference', 'GitHub']);
    expect((await pageTitled('Reference')).path).toBe('install/reference-2');
    await tree(page).getByRole('button', { name: 'Actions for Guide' }).click();
    const menu = page.getByRole('menu', { name: 'Actions for Guide' });
    expect(await menu.getByRole('menuitem', { name: 'Move up' }).isDisabled()).toBe(true);
    await menu.getByRole('menuitem', { name: 'Move down' }).click();
    await expect.poll(outline, { timeout: 10_000 }).toEqual(['Install', '  Ref', '  Reference', 'Guide', 'GitHub']);

    await actions(page, 'GitHub', 'Page settings');
    const settings = page.getByRole('dialog', { name: 'Settings of “GitHub”' });
    await settings.getByRole('textbox', { name: 'URL' }).fill('https://github.com/acme/docs');
    await settings.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await pageTitled('GitHub')).href, { timeout: 10_000 }).toBe('https://github.com/acme/docs');
    await expectAccessible(page);
  });

  it('deletes a page with its sub-pages once the writer confirms, and Cancel keeps it', async () => {
    const { page, outline } = await startWriting();
    await actions(page, 'Install', 'Add page inside');
    await nameNew(page, 'Untitled', 'Linux');
    await expect.poll(outline, { timeout: 10_000 }).toEqual(['Guide', 'Install', '  Linux', 'Reference']);

    await actions(page, 'Install', 'Delete');
    const dialog = page.getByRole('dialog', { name: 'Delete “Install”?' });
    await expect.poll(() => dialog.getByText(/Its 1 sub-page go with it/).isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForTimeout(300);
    expect(await outline()).toEqual(['Guide', 'Install', '  Linux', 'Reference']);

    await actions(page, 'Install', 'Delete');
    await page.getByRole('dialog', { name: 'Delete “Install”?' }).getByRole('button', { name: 'Delete' }).click();
    await expect.poll(outline, { timeout: 10_000 }).toEqual(['Guide', 'Reference']);
  });

  it("saves a page's emoji, description, cover, layout and slug from its settings, and says in words why a slug is refused", async () => {
    const { page, space, number, pageTitled } = await startWriting();
    const inserted = await api('POST', `/v1/spaces/${space}/change-requests/${number}/content?compat=false`, {
      changes: [{ operation: 'insert_files', files: [{ name: 'sky.png', contentType: 'image/png', base64: PNG }] }],
    });
    expect(inserted.status).toBe(200);
    const fileId = inserted.body.insertedFiles[0].id;
    await page.reload();

    await actions(page, 'Install', 'Page settings');
    const settings = page.getByRole('dialog', { name: 'Settings of “Install”' });
    await settings.getByRole('textbox', { name: 'Emoji', exact: true }).fill('📦');
    await settings.getByRole('textbox', { name: 'Description' }).fill('How to install it.');
    await settings.getByText('A file', { exact: true }).click();
    await settings.getByRole('textbox', { name: 'Image' }).click();
    await page.getByRole('option', { name: 'sky.png' }).click();
    await settings.getByText('Page outline', { exact: true }).click();
    await settings.getByText('Wide page', { exact: true }).click();
    expect(await settings.getByRole('switch', { name: 'Page outline' }).isChecked()).toBe(false);
    const slug = settings.getByRole('textbox', { name: 'Slug' });
    await slug.fill('setup.md');
    await expect.poll(() => settings.getByText(/A slug may hold letters, digits and \. _ \+ -, at most 100, with a letter or digit, not ending in \.md: “setup\.md” does not\. Try “setup”/).isVisible()).toBe(true);
    expect(await settings.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await slug.fill('reference');
    await expect.poll(() => settings.getByText(/Another page beside this one already has the slug “reference”/).isVisible()).toBe(true);
    await slug.fill('setting-up');
    await expectAccessible(page);
    await screenshot(page, 'tree/page-settings');
    await settings.getByRole('button', { name: 'Save' }).click();

    await expect.poll(async () => (await pageTitled('Install'))?.slug, { timeout: 10_000 }).toBe('setting-up');
    const install = await pageTitled('Install');
    expect(install).toMatchObject({ emoji: '📦', description: 'How to install it.', path: 'setting-up', cover: { ref: { kind: 'file', file: fileId } } });
    expect(install.layout).toMatchObject({ outline: false, width: 'wide', title: true, pagination: true, tableOfContents: true });
    await expect.poll(() => tree(page).getByRole('link', { name: 'Install' }).textContent()).toBe('📦 Install');

    // A URL cover in place of the file, and the emoji taken away.
    await actions(page, 'Install', 'Page settings');
    await settings.getByRole('textbox', { name: 'Emoji', exact: true }).fill('');
    await settings.getByText('A URL', { exact: true }).click();
    await settings.getByRole('textbox', { name: 'Image URL' }).fill('https://example.com/sky.png');
    // An icon in its place, found by a word Font Awesome gives it ("launch" is no part of "rocket").
    await settings.getByRole('button', { name: 'Choose an icon' }).click();
    const icons = page.getByRole('dialog', { name: 'Icons' });
    await icons.getByRole('textbox', { name: 'Find an icon' }).fill('launch');
    await expect.poll(() => icons.getByRole('button', { name: 'Rocket', exact: true }).isVisible(), { timeout: 10_000 }).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'tree/icon-picker');
    await icons.getByRole('button', { name: 'Rocket', exact: true }).click();
    expect(await settings.getByRole('textbox', { name: 'Icon' }).inputValue()).toBe('rocket');
    await settings.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await pageTitled('Install')).cover, { timeout: 10_000 }).toEqual({ ref: { kind: 'url', url: 'https://example.com/sky.png' } });
    expect(await pageTitled('Install')).toMatchObject({ icon: 'rocket' });
    expect((await pageTitled('Install')).emoji ?? '').toBe('');
    // The tree draws it, Font Awesome's drawing loaded from Quire.
    const drawn = tree(page).getByRole('link', { name: 'Install' }).locator('[data-icon="rocket"]');
    await expect.poll(() => drawn.count()).toBe(1);
    await expect.poll(() => drawn.evaluate((icon) => getComputedStyle(icon).maskImage)).toContain('/app/icons/rocket.svg');
    // An emoji as GitBook's API gives it, its code points in hex, shows as the emoji.
    const reference = (await pageTitled('Reference')).id;
    expect((await api('POST', `/v1/spaces/${space}/change-requests/${number}/content`, { changes: [{ operation: 'update_page', page: reference, emoji: '1f389' }] })).status).toBe(200);
    await page.reload();
    await expect.poll(() => tree(page).getByRole('link', { name: 'Reference' }).textContent(), { timeout: 10_000 }).toBe('🎉 Reference');
  });

  it('shows a reader of the space the tree of a change request without any editing control', async () => {
    const { space, number } = await startWriting();
    const added = await runCli(['admin', 'add-user', '--org', organizationId, '--email', 'rita@acme.test', '--name', 'Rita Reader', '--role', 'read', '--json'], harness.env);
    expect(added.code, added.stderr).toBe(0);
    const link = await runCli(['admin', 'sign-in-link', '--email', 'rita@acme.test', '--json'], harness.env);
    const reader = await harness.newContext();
    expect((await reader.request.post('/auth/sign-in-link', { data: { token: JSON.parse(link.stdout).url.split('/').pop() } })).status()).toBe(200);
    const page = await reader.newPage();
    await page.goto(`/s/${space}/~/changes/${number}/guide?edit`);
    await expect.poll(() => page.getByText(/Only the space’s editors .* may write in it/).isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await page.getByRole('navigation', { name: 'Pages' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Actions for / }).count()).toBe(0);
    expect(await page.getByRole('button', { name: '+ Add page' }).count()).toBe(0);
    expect(await page.locator('[draggable="true"]').count()).toBe(0);
    // The space's own page tree, for readers, is the read-only one, which the arrow keys go along.
    await page.goto(`/s/${space}/guide`);
    const pages = page.getByRole('navigation', { name: 'Pages' });
    await expect.poll(() => pages.getByRole('link', { name: 'Install' }).isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await page.getByRole('button', { name: /^Actions for / }).count()).toBe(0);
    expect(await pages.locator('[draggable="true"]').count()).toBe(0);
    await pages.getByRole('link', { name: 'Guide' }).focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Install');
    await page.keyboard.press('End');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Reference');
  });
});
