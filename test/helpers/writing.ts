// What browser tests of writing share: an organization set up through the app's first
// run with its admin signed in, a token for the API as a script would call it, a space
// seeded through a merged change request, and the editor opened from a page's Edit.
import { crc32, deflateSync } from 'node:zlib';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { callAsSession, type BrowserHarness } from './browser.ts';

export const ADMIN = { organization: 'Acme Docs', name: 'Ada Admin', email: 'ada@acme.test', password: 'correct horse battery' };

export type Api = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;

export interface Organization {
  /** The admin's browser context, signed in. */
  context: BrowserContext;
  organizationId: string;
  /** The API as the admin, with a write token. */
  api: Api;
}

/** The first run's setup as the admin, and a write token for the API. */
export async function setUpOrganization(harness: BrowserHarness): Promise<Organization> {
  const context = await harness.newContext();
  const setup = await context.request.post('/auth/setup', { data: ADMIN });
  expect(setup.status()).toBe(201);
  const organizationId = (await setup.json()).organization.id;
  const token = (await callAsSession(context, 'POST', '/v1/user/tokens', { label: 'seed', scope: 'write' })).body.token;
  const api: Api = async (method, path, body) => {
    const response = await fetch(`${harness.baseUrl}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  return { context, organizationId, api };
}

/** A space whose live content is these pages (markdown, titled by their first heading), merged through a change request; answers its id and its pages' ids in order. */
export async function seedSpace(api: Api, organizationId: string, title: string, pages: string[]): Promise<{ space: string; pages: string[] }> {
  const space = (await api('POST', `/v1/orgs/${organizationId}/spaces`, { title })).body.id;
  const seed = (await api('POST', `/v1/spaces/${space}/change-requests`, { subject: 'First pages' })).body;
  const written = await api('POST', `/v1/spaces/${space}/change-requests/${seed.id}/content`, { changes: pages.map((document) => ({ operation: 'insert_page', document })) });
  expect(written.status, JSON.stringify(written.body)).toBe(200);
  expect((await api('POST', `/v1/spaces/${space}/change-requests/${seed.id}/merge`)).status).toBe(200);
  const content = (await api('GET', `/v1/spaces/${space}/content`)).body;
  return { space, pages: content.pages.map((page: { id: string }) => page.id) };
}

/** The editor's writing area. */
export const editorBox = (page: Page): Locator => page.getByRole('textbox', { name: /the page's content/ });

/** Opens the page at `/s/{space}/{path}`, chooses Edit, and answers the change request's number once the editor shows. */
export async function openEditor(page: Page, space: string, path: string): Promise<string> {
  await page.goto(`/s/${space}/${path}`);
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await expect.poll(() => editorBox(page).isVisible(), { timeout: 10_000 }).toBe(true);
  return /changes\/(\d+)\//.exec(page.url())![1];
}

/**
 * The save status reads Saved, and still does a moment later; when saving failed, the
 * failure says why. The moment: a key just pressed has its Saving… drawn by React on
 * its next render, so a Saved read at once may still be the one before it.
 */
export async function waitSaved(page: Page): Promise<void> {
  const status = page.getByRole('status').filter({ hasText: /^(Saved|Saving…|Not saved)$/ });
  const saved = () => expect.poll(async () => ((await status.textContent()) === 'Not saved' ? await page.getByRole('alert').allTextContents() : await status.textContent()), { timeout: 10_000 }).toBe('Saved');
  await saved();
  await page.waitForTimeout(150);
  await saved();
}

/** The page's document as the change request holds it. */
export async function storedDocument(api: Api, space: string, changeRequest: string, pageId: string): Promise<any> {
  const stored = await api('GET', `/v1/spaces/${space}/change-requests/${changeRequest}/content/page/${pageId}?format=document`);
  expect(stored.status).toBe(200);
  return stored.body.document;
}

/** Nodes without the keys Quire gives every node it stores, which the editor does not make. */
export const withoutKeys = (value: any): any =>
  Array.isArray(value) ? value.map(withoutKeys) : value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).filter(([field]) => field !== 'key').map(([field, inner]) => [field, withoutKeys(inner)])) : value;

/** A text node's words and each leaf's marks, as GitBook writes them. */
export const leaves = (node: any): Array<{ text: string; marks: string[] }> =>
  node.nodes.flatMap((child: any) => (child.object === 'text' ? child.leaves.map((leaf: any) => ({ text: leaf.text, marks: leaf.marks.map((mark: any) => mark.type) })) : []));

/** A real PNG of `width`×`height` red pixels. */
export function redPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [220, 40, 40]).flat())]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(pixels)), chunk('IEND', Buffer.alloc(0))]);
}
