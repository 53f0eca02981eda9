import { sql } from 'drizzle-orm';
import type { Db } from '../../apps/server/src/db/client.ts';

/**
 * A generated workspace written straight into the tables ingestion maintains (members, channels, channel
 * memberships, join/leave events, the activity_daily rollup and the per-member day and month rollups derived
 * from it): the rollup rows are INSERTED DIRECTLY, not produced by ingesting messages. Shared by the Members
 * and Buckets benchmarks.
 */
export type SeedOptions = {
  team: string;
  members: number;
  channels: number;
  days: number;
  /**
   * About how many posts (messages + replies) the rollups should hold. Without it, a third of the members post
   * on ~30% of days and the rest on ~2% (~0.57 posts per member per day); with it, both shares are scaled so
   * the expected total is this many.
   */
  messages?: number;
};

/** A third of the members are regulars (active on REGULAR of days), the rest drop by (OCCASIONAL of days). */
const REGULAR = 0.3;
const OCCASIONAL = 0.02;
/** Expected messages + replies of one activity_daily row: 1-6 messages (3.5) and 0-3 replies (1.5). */
const POSTS_PER_ROW = 5;

/** The shares of days on which regulars and occasional members are active, for `messages` posts. */
export function activityShares({ members, days, messages }: SeedOptions) {
  const expectedRows = members * days * ((REGULAR + 2 * OCCASIONAL) / 3);
  const scale = messages === undefined ? 1 : messages / POSTS_PER_ROW / expectedRows;
  return { regular: Math.min(1, REGULAR * scale), occasional: Math.min(1, OCCASIONAL * scale) };
}

export async function seedActivity(db: Db, options: SeedOptions) {
  const { team: TEAM, members: MEMBERS, channels: CHANNELS, days: DAYS } = options;
  const shares = activityShares(options);
  // Deterministic pseudo-random numbers in SQL: hashes of the row keys.
  await db.execute(sql`create or replace function h(a text) returns double precision language sql immutable as
    $$ select ('x' || substr(md5(a), 1, 8))::bit(32)::bigint / 4294967296.0 $$`);
  await db.execute(sql`insert into workspaces (team_id, workspace_name, domain, timezone)
    values (${TEAM}, 'Bench Community', 'bench', 'Europe/Berlin')`);
  await db.execute(sql`insert into slack_members (team_id, member_id, real_name, display_name, email, joined_at, left_at,
      deleted, last_active_at, is_bot)
    select ${TEAM}, 'U' || lpad(i::text, 7, '0'),
      (array['Ada','Alan','Grace','Katherine','Linus','Margaret','Dennis','Barbara','Ken','Radia'])[1 + i % 10] || ' ' ||
      (array['Lovelace','Turing','Hopper','Johnson','Torvalds','Hamilton','Ritchie','Liskov','Thompson','Perlman'])[1 + (i / 10) % 10] || ' ' || i,
      'user' || i, 'user' || i || '@example.com',
      now() - (h('j' || i) * ${DAYS + 300} || ' days')::interval,
      case when h('l' || i) < 0.03 then now() - (h('lt' || i) * 200 || ' days')::interval end,
      h('l' || i) < 0.03,
      case when h('a' || i) < 0.8 then now() - (h('la' || i) * 60 || ' days')::interval end,
      false
    from generate_series(1, ${MEMBERS}) i`);
  await db.execute(sql`insert into slack_channels (team_id, channel_id, name)
    select ${TEAM}, 'C' || lpad(c::text, 6, '0'), 'channel-' || c from generate_series(1, ${CHANNELS}) c`);
  // Everyone is in #channel-1; each member is in ~3 other channels.
  await db.execute(sql`insert into slack_channel_members (team_id, channel_id, member_id)
    select distinct ${TEAM}, 'C' || lpad(c::text, 6, '0'), 'U' || lpad(i::text, 7, '0')
    from generate_series(1, ${MEMBERS}) i,
      lateral (select 1 as c union all select 2 + floor(h('c' || i || k) * ${CHANNELS - 1})::int from generate_series(1, 3) k) x`);
  await db.execute(sql`insert into slack_member_events (team_id, member_id, kind, at, day)
    select team_id, member_id, 'join', joined_at, (joined_at at time zone 'Europe/Berlin')::date from slack_members
    where team_id = ${TEAM} and joined_at > now() - interval '${sql.raw(String(DAYS))} days'
    union all
    select team_id, member_id, 'leave', left_at, (left_at at time zone 'Europe/Berlin')::date from slack_members
    where team_id = ${TEAM} and left_at is not null`);
  // Rollups: a third of members are regulars (active ~30% of days), the rest drop by (~2% of days), in 1-2 channels
  // (both shares scaled by `messages` when given).
  await db.execute(sql`select setseed(0.42)`);
  await db.execute(sql`insert into activity_daily (team_id, day, member_id, channel_id, messages, replies, reactions)
    select ${TEAM}, d::date, 'U' || lpad(i::text, 7, '0'),
      'C' || lpad((1 + (i * 7 + floor(random() * 2)::int) % ${CHANNELS})::text, 6, '0'),
      1 + floor(random() * 6)::int, floor(random() * 4)::int, floor(random() * 8)::int
    from generate_series((current_date - ${DAYS - 1}::int)::timestamp, current_date::timestamp, interval '1 day') d,
      generate_series(1, ${MEMBERS}) i
    -- (the day term keeps PostgreSQL from drawing once per member and reusing it for every day)
    where random() + 0 * extract(day from d) < case when i % 3 = 0 then ${shares.regular}::float8 else ${shares.occasional}::float8 end
    on conflict do nothing`);
  // The per-member rollups ingestion keeps beside activity_daily (same counts, coarser keys).
  await db.execute(sql`insert into activity_member_daily (team_id, day, member_id, messages, replies, reactions)
    select team_id, day, member_id, sum(messages), sum(replies), sum(reactions) from activity_daily
    where team_id = ${TEAM} group by 1, 2, 3`);
  await db.execute(sql`insert into activity_member_monthly (team_id, month, member_id, messages, replies, reactions)
    select team_id, date_trunc('month', day)::date, member_id, sum(messages), sum(replies), sum(reactions)
    from activity_daily where team_id = ${TEAM} group by 1, 2, 3`);
  await db.execute(sql`insert into activity_team_daily (team_id, day, active_members)
    select team_id, day, count(*) from activity_member_daily where team_id = ${TEAM}
      and messages + replies + reactions > 0 group by 1, 2`);
}

/** Eight tags, each on about 5% of the members. */
export async function seedTags(db: Db, { team: TEAM, members: MEMBERS }: SeedOptions) {
  await db.execute(
    sql`insert into tags (team_id, name) select ${TEAM}, 'tag-' || t from generate_series(1, 8) t`,
  );
  await db.execute(sql`insert into member_tags (team_id, member_id, tag_id)
    select ${TEAM}, 'U' || lpad(i::text, 7, '0'), t.id from generate_series(1, ${MEMBERS}) i, tags t
    where t.team_id = ${TEAM} and h('tag' || i || t.id) < 0.05`);
  // As autovacuum leaves a freshly loaded table: statistics and the visibility map (index-only scans).
  await db.execute(sql`vacuum analyze`);
}

/**
 * The rollups Home and Analytics read beside the per-member ones, derived from activity_daily as the drain's
 * buffer derives them from the same counts: per channel and day (sums); per team, day and local hour (each
 * day's totals spread over the hours by a fixed daily curve, in integers, so the hours add up to the day
 * exactly); and the word cloud's keyword_daily (3,000 terms a day at most, Zipf-shaped: term k is in about
 * 8% / k of the day's posts). The Members and Buckets benchmarks do not read them.
 */
export async function seedCoarserRollups(db: Db, { team: TEAM }: SeedOptions) {
  await db.execute(sql`insert into activity_channel_daily (team_id, day, channel_id, messages, replies, reactions)
    select team_id, day, channel_id, sum(messages), sum(replies), sum(reactions) from activity_daily
    where team_id = ${TEAM} group by 1, 2, 3`);
  await db.execute(sql`with w as (select h, 10 + round(8 * sin((h - 8) * pi() / 12))::bigint as w
      from generate_series(0, 23) h),
    c as (select h, sum(w) over (order by h) as hi, sum(w) over (order by h) - w as lo, sum(w) over () as total from w),
    d as (select team_id, day, sum(messages)::bigint as m, sum(replies)::bigint as r, sum(reactions)::bigint as x
      from activity_channel_daily where team_id = ${TEAM} group by 1, 2)
    insert into activity_team_hourly (team_id, day, hour, messages, replies, reactions)
    select team_id, day, h, m * hi / total - m * lo / total, r * hi / total - r * lo / total, x * hi / total - x * lo / total
    from d cross join c`);
  await db.execute(sql`insert into keyword_daily (team_id, day, term, count)
    select d.team_id, d.day, 'term' || k, floor(d.posts * 0.08 / k)::int
    from (select team_id, day, sum(messages + replies) as posts from activity_channel_daily
      where team_id = ${TEAM} group by 1, 2) d, generate_series(1, 3000) k
    where floor(d.posts * 0.08 / k) >= 1`);
}
