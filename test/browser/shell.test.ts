// The app's page in Chromium: it loads under its own strict policy, a deep link opens a
// screen, as the server's answer at every urls.app promises, and the theme is the reader's choice.
import { expect, it } from 'vitest';
import { describeInBrowser, expectAccessible, PHONE, screenshot, useBrowser, watchPolicy } from '../helpers/browser.ts';

describeInBrowser('the app in a browser', () => {
  const harness = useBrowser();

  it('opens a deep link under its Content-Security-Policy with nothing refused and no error in the console, showing a screen that names itself, at desktop and phone width', async () => {
    const page = await harness.newPage();
    const policyKept = watchPolicy(page);
    const errors: string[] = [];
    page.on('console', (message) => {
      // A signed-out page's API reads answer 401 (a screen's data prefetched before the guard), which the browser logs.
      if ((message.type() === 'error' || message.type() === 'warning') && !/status of 401/.test(message.text())) errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    const scripts: string[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.push(`${response.status()} ${new URL(response.url()).pathname}`);
    });
    await page.goto('/s/some-space/some/page');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).count(), { timeout: 15_000 }).toBeGreaterThan(0);
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.every((script) => /^200 \/app\/assets\/[\w-]+\.js$/.test(script))).toBe(true);
    await expectAccessible(page);
    await page.setViewportSize(PHONE);
    // Nothing wider than a phone's screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    policyKept();
    expect(errors).toEqual([]);
  });

  it('switches to the dark theme and keeps it after a reload, still readable by axe-core', async () => {
    const page = await harness.newPage();
    await page.goto('/sign-in');
    const scheme = () => page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'));
    await page.getByRole('button', { name: 'Switch to the dark theme' }).click();
    await expect.poll(scheme, { timeout: 15_000 }).toBe('dark');
    await page.reload();
    await page.getByRole('button', { name: 'Switch to the light theme' }).waitFor();
    expect(await scheme()).toBe('dark');
    await expectAccessible(page);
    await screenshot(page, 'dark-theme');
  });
});
