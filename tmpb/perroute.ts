import { load, runCli, startServerProcess, stop, sqliteDatabase } from '../bench/support.ts';
const database = await sqliteDatabase();
const boot = await runCli(['admin', 'bootstrap', '--org', 'Load', '--email', 'load@quire.test', '--name', 'Load', '--json'], database.env);
const { token, organization } = JSON.parse(boot.stdout);
process.env.PROF_ARGS = process.env.PROF ?? '';
const server = await startServerProcess({ ...database.env, LOG_LEVEL: 'warn', QUIRE_RATE_LIMIT: '0' });
const headers = (body: boolean) => ({ authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) });
const must = async (method: string, path: string, body?: unknown) => {
  const r = await fetch(server.baseUrl + path, { method, headers: headers(body !== undefined), body: body === undefined ? undefined : JSON.stringify(body) });
  if (r.status >= 300) throw new Error(`${method} ${path} ${r.status}`);
  return r.status === 204 ? undefined : r.json();
};
const spaces: any[] = [];
for (let i = 0; i < 20; i++) {
  const space = await must('POST', `/v1/orgs/${organization.id}/spaces`, { title: `Space ${i}` });
  const seed = await must('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Seed' });
  await must('POST', `/v1/spaces/${space.id}/change-requests/${seed.id}/content`, { changes: Array.from({ length: 50 }, (_, p) => ({ operation: 'insert_page', document: `# Page ${p}\n\n${'Some words about the topic at hand. '.repeat(40)}` })) });
  await must('POST', `/v1/spaces/${space.id}/change-requests/${seed.id}/merge`);
  const pages = (await must('GET', `/v1/spaces/${space.id}/content/pages`)).pages.map((p: any) => p.id);
  await must('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Open' });
  await must('POST', `/v1/spaces/${space.id}/comments`, { body: { markdown: 'First' } });
  spaces.push({ id: space.id, pages });
}
const s = spaces[3];
const routes: Array<[string, string]> = [
  ['space', `/v1/spaces/${s.id}`],
  ['space list', `/v1/orgs/${organization.id}/spaces?limit=20`],
  ['page list', `/v1/spaces/${s.id}/content/pages`],
  ['page', `/v1/spaces/${s.id}/content/page/${s.pages[7]}`],
  ['CR list', `/v1/spaces/${s.id}/change-requests`],
  ['comments', `/v1/spaces/${s.id}/comments`],
  ['org', `/v1/orgs/${organization.id}`],
  ['search topic', `/v1/orgs/${organization.id}/search?query=topic`],
  ['search "at hand"', `/v1/orgs/${organization.id}/search?query=${encodeURIComponent('"at hand"')}`],
];
for (const [name, path] of routes.filter(([n]) => !process.env.ONLY || n.startsWith(process.env.ONLY))) {
  const r = await load(server.baseUrl + path, { authorization: `Bearer ${token}` }, 3, 8);
  console.log(name.padEnd(18), r.requestsPerSecond.toFixed(0).padStart(6), 'req/s', 'p50', r.p50, 'p99', r.p99, 'err', r.errors + r.non2xx);
}
await stop(server.child);
if (process.env.SQLEXP) {
  const Sqlite = (await import('better-sqlite3')).default;
  const db = new Sqlite(database.env.QUIRE_DATA_DIR + '/quire.db');
  const time = (label: string, sqlText: string, params: unknown[]) => {
    const st = db.prepare(sqlText);
    st.all(...params);
    const t = performance.now();
    let rows = 0;
    for (let i = 0; i < 50; i++) rows = st.all(...params).length;
    console.log(label.padEnd(30), ((performance.now() - t) / 50).toFixed(2), 'ms', rows, 'rows');
  };
  const org = organization.id;
  for (const m of ['"topic"', '"at hand"']) {
  const scope = 's.organization_id = ? and s.deleted_at is null';
  const fields = 'ss.id, ss.space_id, s.title as space_title, ss.page_id, ss.section_index, ss.anchor, ss.page_title, ss.page_path, ss.heading, ss.body';
  time('titles', `select ${fields} from search_fts join search_sections ss on ss.id = search_fts.rowid join spaces s on s.id = ss.space_id where search_fts match ? and ${scope} order by bm25(search_fts, 10.0, 4.0, 1.0), ss.id limit 200`, ['{page_title heading} : (' + m + ')', org]);
  time('bound', `select max(id) as last from (select ss.id from search_fts join search_sections ss on ss.id = search_fts.rowid join spaces s on s.id = ss.space_id where search_fts match ? and ${scope} limit 1000)`, [m, org]);
  const last = (db.prepare(`select max(rowid) as last from search_fts where search_fts match ?`).get(m) as any).last;
  time('body (current)', `select ${fields} from search_fts join search_sections ss on ss.id = search_fts.rowid join spaces s on s.id = ss.space_id where search_fts match ? and search_fts.rowid <= ? and ${scope} order by bm25(search_fts, 10.0, 4.0, 1.0), ss.id limit 200`, [m, last, org]);
  time('body ids only', `select ss.id from search_fts join search_sections ss on ss.id = search_fts.rowid join spaces s on s.id = ss.space_id where search_fts match ? and search_fts.rowid <= ? and ${scope} order by bm25(search_fts, 10.0, 4.0, 1.0), ss.id limit 200`, [m, last, org]);
  time('fts only bm25', `select rowid, bm25(search_fts, 10.0, 4.0, 1.0) as r from search_fts where search_fts match ? and rowid <= ? order by r limit 200`, [m, last]);
  time('fts only no rank', `select rowid from search_fts where search_fts match ? and rowid <= ?`, [m, last]);
  time('ids rank via subquery', `select c.id from (select rowid as id, bm25(search_fts, 10.0, 4.0, 1.0) as r from search_fts where search_fts match ? and rowid <= ?) c join search_sections ss on ss.id = c.id join spaces s on s.id = ss.space_id where ${scope} order by c.r, c.id limit 50`, [m, last, org]);
  time('one pass bounded', `select id from (select ss.id as id, bm25(search_fts, 10.0, 4.0, 1.0) as r from search_fts join search_sections ss on ss.id = search_fts.rowid join spaces s on s.id = ss.space_id where search_fts match ? and ${scope} limit 1000) order by r, id limit 50`, [m, org]);
  time('fts rank col', `select rowid from search_fts where search_fts match ? and rowid <= ? order by rank limit 200`, [m, last]);
  }
  db.close();
  const { buildApp } = await import('../src/app.ts');
  const { loadConfig } = await import('../src/config.ts');
  const { openMigratedDatabase } = await import('../src/db/index.ts');
  const config = loadConfig({ ...database.env, LOG_LEVEL: 'silent', QUIRE_RATE_LIMIT: '0' });
  const handle = await openMigratedDatabase({ databaseUrl: undefined, dataDir: config.dataDir });
  const app = await buildApp({ config, database: handle });
  const { matchingSections } = await import('../src/db/fullText.ts');
  const { parseSearchQuery } = await import('../src/content/search.ts');
  for (const q of ['topic', '"at hand"', 'topic', '"at hand"']) {
    let t = performance.now();
    let size = 0;
    for (let i = 0; i < 30; i++) size = (await app.inject({ method: 'GET', url: `/v1/orgs/${org}/search?query=${encodeURIComponent(q)}`, headers: { authorization: `Bearer ${token}` } })).body.length;
    console.log('inject', q, ((performance.now() - t) / 30).toFixed(2), 'ms', size, 'bytes');
    t = performance.now();
    for (let i = 0; i < 30; i++) await matchingSections(handle.db, parseSearchQuery(q), { organizationId: org }, 50);
    console.log('matchingSections', q, ((performance.now() - t) / 30).toFixed(2), 'ms');
  }
  for (const [k, v] of [...(globalThis as any).__sqlstats].sort((a: any, b: any) => b[1].ms - a[1].ms).slice(0, 8)) console.log(v.n, (v.ms / v.n).toFixed(2), k.replace(/\s+/g, ' ').slice(0, 150));
  await app.close();
  await handle.close();
}
await database.drop();
