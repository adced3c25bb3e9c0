// The README and docs/ as a new user meets them: docs/ is a GitBook repository that
// Quire's own folder import takes whole, with no warning and no broken link between its
// pages, and the README's client example runs as written against a running server.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { callServer, runCli, runNode, startServerProcess, type ServerProcess } from '../helpers/process.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const docs = `${root}docs`;

let database: TestDatabase;
let server: ServerProcess;
let boot: { organization: { id: string }; token: string };

beforeAll(async () => {
  database = await createTestDatabase();
  server = await startServerProcess(database.env);
  const booted = await runCli(['admin', 'bootstrap', '--org', 'Tests', '--email', 'ada@acme.test', '--name', 'Ada', '--json'], database.env);
  expect(booted.code, booted.stderr).toBe(0);
  boot = JSON.parse(booted.stdout);
});

afterAll(async () => {
  server?.child.kill('SIGKILL');
  await database.drop();
});

const api = (method: string, path: string, body?: unknown) => callServer(server, method, path, boot.token, body);

/** The titles SUMMARY.md lists, groups (`## …`) and pages (`* [Title](file.md)`), in order, nested as it nests them. */
function summaryTitles(summary: string): string[] {
  return summary.split('\n').flatMap((line) => {
    const group = /^## (.+)$/.exec(line);
    const page = /^(\s*)\* \[([^\]]+)\]\(([^)]+\.md)\)$/.exec(line);
    if (group) return [group[1]];
    if (page) return [page[2]];
    expect(line, 'a SUMMARY.md line this test does not read').toMatch(/^(# Table of contents)?$/);
    return [];
  });
}

interface Page {
  title: string;
  pages?: Page[];
}

const titlesOf = (pages: Page[]): string[] => pages.flatMap((page) => [page.title, ...titlesOf(page.pages ?? [])]);

describe("Quire's own documentation", () => {
  it('imports docs/ as a GitBook repository: every page SUMMARY.md lists, with its images, no warning and no broken link between pages', async () => {
    const space = await api('POST', `/v1/orgs/${boot.organization.id}/spaces`, { title: 'Quire docs' });
    expect(space.status).toBe(201);
    const imported = await runCli(['import', docs, '--space', space.body.id, '--json'], database.env);
    expect(imported.code, imported.stderr).toBe(0);
    const result = JSON.parse(imported.stdout.trim().split('\n').pop()!);
    const summary = readFileSync(`${docs}/SUMMARY.md`, 'utf8');
    const listed = summaryTitles(summary);
    expect(result.warnings).toEqual([]);
    expect(result.pages).toBe(listed.length);

    const content = await api('GET', `/v1/spaces/${space.body.id}/content`);
    expect(titlesOf(content.body.pages)).toEqual(listed);
    // Every page file of docs/ is listed: a page SUMMARY.md leaves out is not imported.
    const pageFiles = readdirSync(docs).filter((name) => name.endsWith('.md') && name !== 'SUMMARY.md');
    expect(pageFiles.length).toBe(listed.length - summary.split('\n').filter((line) => line.startsWith('## ')).length);
    expect(content.body.files.map((file: { name: string }) => file.name).sort()).toEqual(readdirSync(`${docs}/.gitbook/assets`).sort());

    // Links to other pages, their anchors and files all resolve; a link to the web is the link checker's business.
    const broken: { targetReference: { kind: string; url?: string; page?: { title: string } }; internalLocation?: unknown }[] = [];
    for (let page: string | undefined = ''; page !== undefined; ) {
      const links = await api('GET', `/v1/spaces/${space.body.id}/links?status=broken&limit=1000${page ? `&page=${page}` : ''}`);
      broken.push(...links.body.items);
      page = links.body.next?.page;
    }
    const internal = broken
      .map(({ targetReference: target }) => (target.kind === 'url' ? target.url! : `${target.kind} ${target.page?.title ?? ''} ${JSON.stringify(target).match(/"anchor":"[^"]*"/)?.[0] ?? ''}`))
      .filter((target) => !/^https?:\/\//.test(target));
    expect(internal).toEqual([]);
  });

  it("runs the README's client example as written, with node, against a running server", async () => {
    const example = readFileSync(`${root}examples/members.mjs`, 'utf8');
    for (const page of ['README.md', 'docs/getting-started.md']) expect(readFileSync(`${root}${page}`, 'utf8'), page).toContain(`\`\`\`js\n${example}\`\`\``);
    const run = await runNode(['examples/members.mjs'], { cwd: root, env: { PATH: process.env.PATH, QUIRE: server.baseUrl, TOKEN: boot.token, ORG: boot.organization.id } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('Tests: 1 member(s)\n- Ada (admin)\n');
  });
});
