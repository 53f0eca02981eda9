import { describe, expect, it } from 'vitest';
import { leasePglite } from './db-template.ts';

// The suite's recycled PGlite databases (db-template.ts): a test app's database comes back in the template's
// state, or is not reused at all.
describe('recycled test databases', () => {
  const migrations = 'drizzle.__drizzle_migrations';

  it('come back as the template: rows gone, its own rows back, sequences and session settings reset', async () => {
    const first = await leasePglite();
    const count = async () =>
      (await first.client.query<{ n: number }>(`select count(*)::int as n from ${migrations}`)).rows[0]!.n;
    const template = await count();
    expect(template).toBeGreaterThan(10);
    const nextId = async () =>
      (
        await first.client.query<{ id: number }>(
          `insert into ${migrations} (hash, created_at) values ('x', 0) returning id`,
        )
      ).rows[0]!.id;
    const id = await nextId();
    await first.client.query(`delete from ${migrations} where id < 3`);
    await first.client.exec(`set timezone = 'Asia/Tokyo'`);
    await first.giveBack();

    const second = await leasePglite();
    expect(second.client).toBe(first.client);
    expect(await count()).toBe(template);
    expect(await nextId()).toBe(id);
    expect((await second.client.query<{ TimeZone: string }>('show timezone')).rows[0]!.TimeZone).not.toBe(
      'Asia/Tokyo',
    );
    await second.giveBack();
  });

  it('a database whose catalogue changed is closed, not reused', async () => {
    const first = await leasePglite();
    await first.client.exec('create table stray (id int)');
    await first.giveBack();
    expect(first.client.closed).toBe(true);
    const second = await leasePglite();
    expect(second.client).not.toBe(first.client);
    expect((await second.client.query(`select 1 from pg_class where relname = 'stray'`)).rows).toHaveLength(
      0,
    );
    await second.giveBack();
  });

  it('a database left inside a transaction is closed, not reused', async () => {
    const first = await leasePglite();
    await first.client.exec('begin');
    await first.giveBack();
    expect(first.client.closed).toBe(true);
  });
});
