/**
 * Engagement levels on a 50,000-member workspace, on PostgreSQL.
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/members/levels.ts [--members 50000]
 *
 * A scratch database gets the real migrations and the Members benchmark's generated workspace (seed.ts: members,
 * channels and the per-member daily rollups INSERTED DIRECTLY, 60 days: the levels read 55). Then, through the
 * product's own code (apps/server/src/modules/activity/levels.ts):
 *  - the first computation (every member gets a level and a history row), a recompute with nothing changed, and
 *    a recompute 16 days on (no activity since: a third of the workspace slips), each timed;
 *  - the Members list filtered by level (POST /members/getmembersdata's service), N runs: p50/p95.
 * Target: levels for 50,000 members recomputed in under 10 s.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../../apps/server/src/db/client.ts';
import { secretBox } from '../../apps/server/src/lib/secret-box.ts';
import { addDays, localDay } from '../../apps/server/src/lib/days.ts';
import { refreshLevels } from '../../apps/server/src/modules/activity/levels.ts';
import { levelOf } from '../../packages/shared/src/levels.ts';
import { membersService } from '../../apps/server/src/modules/members-list/service.ts';
import { tagsService } from '../../apps/server/src/modules/tags/service.ts';
import { workspacesService } from '../../apps/server/src/modules/workspaces/service.ts';
import { seedActivity } from './seed.ts';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const MEMBERS = arg('members', 50_000);
const RUNS = arg('runs', 30);
const TEAM = 'TBENCH0001';
const TZ = 'Europe/Berlin';
const base = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
if (!base) throw new Error('Set TEST_DATABASE_URL (postgres://postgres@127.0.0.1:5432/test)');

const name = `flywheel_bench_${crypto.randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: base });
await admin.connect();
await admin.query(`create database ${name}`);
await admin.end();
const url = new URL(base);
url.pathname = `/${name}`;
const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 8 });

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};
const loadBefore = os.loadavg();
const out: string[] = [];
try {
  await database.migrate();
  const db = database.db;
  await seedActivity(db, { team: TEAM, members: MEMBERS, channels: 40, days: 60 });
  // As autovacuum leaves a freshly loaded table: statistics and the visibility map.
  await db.execute(sql`vacuum analyze`);
  const timezones = new Map([[TEAM, TZ]]);
  const today = localDay(new Date(), TZ);
  const timed = async (label: string, now: Date) => {
    const t0 = performance.now();
    const r = await refreshLevels(db, timezones, now, true);
    const s = (performance.now() - t0) / 1000;
    const levels = (await db.execute(
      sql`select level, count(*)::int as n from member_levels where team_id = ${TEAM} group by level order by level`,
    )) as unknown as { rows: { level: string; n: number }[] };
    const mismatches = await check(localDay(now, TZ));
    const line = `| ${label} | ${s.toFixed(2)} s | ${(r.get(TEAM) ?? []).length} | ${levels.rows.map((l) => `${l.level} ${l.n}`).join(', ')} | ${mismatches} |`;
    console.log(line);
    out.push(line);
  };
  /** Members whose stored level differs from the rules applied in plain code (levelOf) to their rollup rows. */
  const check = async (day: string) => {
    const rows =
      (await db.execute(sql`select m.member_id, (m.joined_at at time zone ${TZ})::date::text as joined,
        l.level, coalesce(json_agg(json_build_object('day', a.day::text, 'posts', a.messages + a.replies))
          filter (where a.day is not null), '[]') as days
      from slack_members m left join member_levels l on l.team_id = m.team_id and l.member_id = m.member_id
      left join activity_member_daily a on a.team_id = m.team_id and a.member_id = m.member_id
        and a.messages + a.replies + a.reactions > 0
      where m.team_id = ${TEAM} and not m.deleted and not m.is_bot group by 1, 2, 3`)) as unknown as {
        rows: {
          member_id: string;
          joined: string | null;
          level: string | null;
          days: { day: string; posts: number }[];
        }[];
      };
    const wrong = rows.rows.filter((r) => levelOf({ joinedDay: r.joined, days: r.days }, day) !== r.level);
    if (process.env.LEVELS_DEBUG)
      for (const w of wrong.slice(0, 2))
        console.log(
          day,
          w.level,
          levelOf({ joinedDay: w.joined, days: w.days }, day),
          w.joined,
          JSON.stringify(w.days.map((x) => x.day).sort()),
        );
    return wrong.length;
  };
  out.push(
    '| recompute | time | transitions | levels held | differing from the rules in plain code |',
    '| --- | --- | --- | --- | --- |',
  );
  await timed('first computation (every member new)', new Date());
  await timed('again, nothing changed', new Date());
  await timed('16 days on (a third slips)', new Date(`${addDays(today, 16)}T12:00:00Z`));
  await timed('back to today', new Date());

  const workspaces = workspacesService(db, secretBox(crypto.randomBytes(32)));
  const members = membersService({ db, workspaces, tags: tagsService(db), querySlices: 2 });
  out.push('', '| Members list filtered by level | p50 | p95 |', '| --- | --- | --- |');
  for (const levels of [['slipping'], ['regular', 'champion'], ['casual'], ['dormant']] as const) {
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      await members.page({
        team_id: TEAM,
        levels: [...levels],
        page: 1,
        page_size: 25,
        time_filter: { type: 'static', days: 30 },
        sort: { field: 'activity', direction: 'desc' },
      });
      times.push(performance.now() - t0);
    }
    const line = `| ${levels.join(' + ')} | ${pct(times, 50).toFixed(0)} ms | ${pct(times, 95).toFixed(0)} ms |`;
    console.log(line);
    out.push(line);
  }
} finally {
  await database.close();
  if (process.argv.includes('--keep')) {
    console.log(`kept database ${name}`);
    process.exit(0);
  }
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  await c.query(`drop database if exists ${name} with (force)`);
  await c.end();
}
const results = path.join(path.dirname(fileURLToPath(import.meta.url)), 'LEVELS.md');
fs.writeFileSync(
  results,
  `# Engagement levels at ${MEMBERS.toLocaleString('en')} members (PostgreSQL)\n\n` +
    `\`TEST_DATABASE_URL=… npx tsx bench/members/levels.ts\`, ${new Date().toISOString().slice(0, 10)}, ` +
    `${os.cpus().length} cores, load average before ${loadBefore.map((l) => l.toFixed(1)).join(' / ')}, after ` +
    `${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')}.\n\n${out.join('\n')}\n\nTarget: every recompute under 10 s.\n`,
);
console.log(`wrote ${results}`);
