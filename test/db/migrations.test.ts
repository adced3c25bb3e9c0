// Migrations bring a database up to date however the rest of the database server is
// used: on PostgreSQL, Quire may share a database with other applications' schemas, and
// with test runs that create and drop schemas of their own.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.ts';
import { createTestDatabase, engine } from '../helpers/database.ts';

describe('migrations', () => {
  it.skipIf(engine !== 'postgres')('migrate a schema while other clients create and drop schemas of their own beside it', async () => {
    let churning = true;
    // What another application, or another test file, does to the database meanwhile.
    const churn = async () => {
      const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await client.connect();
      try {
        while (churning) {
          const schema = `quire_churn_${newId(12).toLowerCase()}`;
          await client.query(`create schema ${schema}; create table ${schema}.notes (id serial primary key, body text)`);
          await client.query(`drop schema ${schema} cascade`);
        }
      } finally {
        await client.end();
      }
    };
    const others = [churn(), churn()];
    const outcomes: string[] = [];
    try {
      for (let attempt = 0; attempt < 5; attempt++) {
        const database = await createTestDatabase();
        try {
          const handle = await database.open();
          await handle.close();
          outcomes.push('migrated');
        } catch (error) {
          outcomes.push((error as Error).message);
        } finally {
          await database.drop();
        }
      }
    } finally {
      churning = false;
      await Promise.all(others);
    }
    expect(outcomes).toEqual(Array(5).fill('migrated'));
  });
});
