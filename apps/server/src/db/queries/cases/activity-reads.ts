import { activityReads, type ActivityMatch, type Window } from '../../../modules/activity/reads.ts';
import { AT, DAY, LATER, T, TW, type QueryCase } from './common.ts';
import { ID, seedStandingWindows } from './fixture.ts';

const file = 'activity-reads';
/** Seven days ending on DAY: a standing window for TW, rollups for T. */
const W: Window = { teamId: T, fromDay: '2026-01-09', toDay: DAY };
const MORE_THAN_2_MESSAGES: ActivityMatch = {
  combiner: 'AND',
  conditions: [{ column: 'messages', operator: '>', count: 2 }],
};
/** Holds for a member with no activity at all: every member is a candidate. */
const FEWER_THAN_5_REPLIES: ActivityMatch = {
  combiner: 'OR',
  conditions: [{ column: 'replies', operator: '<', count: 5 }],
};

export const activityReadsCases: QueryCase[] = [
  { file, name: 'activityReads.perDay', run: (db) => activityReads(db).perDay(W) },
  { file, name: 'activityReads.perHour', run: (db) => activityReads(db).perHour(W) },
  { file, name: 'activityReads.totals', run: (db) => activityReads(db).totals(W) },
  {
    file,
    name: 'activityReads.hourTotals',
    run: (db) => activityReads(db).hourTotals(T, { day: '2026-01-14', hour: 13 }, { day: DAY, hour: 12 }),
  },
  { file, name: 'activityReads.perDayChannel', run: (db) => activityReads(db).perDayChannel(W, ['C1']) },
  {
    file,
    name: 'activityReads.channelTotals',
    run: (db) => activityReads(db).channelTotals(W, MORE_THAN_2_MESSAGES),
  },
  { file, name: 'activityReads.channelNames', run: (db) => activityReads(db).channelNames(T, ['C1']) },
  {
    file,
    name: 'activityReads.memberTotals',
    run: (db) =>
      activityReads(db).memberTotals(W, {
        channels: null,
        tags: [ID],
        match: MORE_THAN_2_MESSAGES,
        limit: 20,
        offset: 20,
      }),
  },
  {
    file,
    name: 'activityReads.memberTotals (channels, every member a candidate)',
    run: (db) =>
      activityReads(db).memberTotals(W, {
        channels: ['C1'],
        tags: null,
        match: FEWER_THAN_5_REPLIES,
        limit: 20,
        counted: false,
      }),
  },
  {
    file,
    name: 'activityReads.memberTotals (a standing window)',
    seed: seedStandingWindows,
    run: (db) =>
      activityReads(db).memberTotals(
        { ...W, teamId: TW },
        { channels: null, tags: null, match: null, limit: 20 },
      ),
  },
  { file, name: 'activityReads.activeMembers', run: (db) => activityReads(db).activeMembers(W) },
  {
    file,
    name: 'activityReads.activeMembers (one day)',
    run: (db) => activityReads(db).activeMembers({ ...W, fromDay: DAY }),
  },
  { file, name: 'activityReads.activePerDay', run: (db) => activityReads(db).activePerDay(W, null) },
  {
    file,
    name: 'activityReads.activePerDay (channels)',
    run: (db) => activityReads(db).activePerDay(W, ['C1']),
  },
  { file, name: 'activityReads.eventsPerDay', run: (db) => activityReads(db).eventsPerDay(T, '2026-01-01') },
  { file, name: 'activityReads.eventsBetween', run: (db) => activityReads(db).eventsBetween(T, AT, LATER) },
  { file, name: 'activityReads.historyStart', run: (db) => activityReads(db).historyStart(T) },
  { file, name: 'activityReads.currentMembers', run: (db) => activityReads(db).currentMembers(T) },
  { file, name: 'activityReads.adminShare', run: (db) => activityReads(db).adminShare(W) },
  { file, name: 'activityReads.topTerms', run: (db) => activityReads(db).topTerms(W, 10) },
  { file, name: 'activityReads.memberInfo', run: (db) => activityReads(db).memberInfo(T, 'U1') },
  {
    file,
    name: 'activityReads.memberPerDay',
    run: (db) => activityReads(db).memberPerDay(T, 'U1', W.fromDay, W.toDay),
  },
  {
    file,
    name: 'activityReads.memberPerChannel',
    run: (db) => activityReads(db).memberPerChannel(T, 'U1', W.fromDay, W.toDay),
  },
  { file, name: 'activityReads.membersSince', run: (db) => activityReads(db).membersSince(T, '2026-01-01') },
];
