/**
 * Generates a 50,000-member / ~5,000,000-message workspace and iterates every message, as a history
 * backfill would (channel by channel, day by day), reporting elapsed time and peak memory.
 * Run: npx tsx bench/emulator/generate.ts [members] [channels] [days] [messages]
 */
import { generateDay, generateWorkspace } from '../../packages/slack-emulator/src/index.ts';

const [members = 50_000, channels = 500, days = 365, messages = 5_000_000] = process.argv
  .slice(2)
  .map(Number);
const started = performance.now();
let peakRss = process.memoryUsage().rss;
const sample = () => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
};

const ws = generateWorkspace({ seed: 2026, members, channels, days, messages, endTime: 1_767_225_600 });
const workspaceMs = performance.now() - started;
sample();

const counts = { total: 0, topLevel: 0, replies: 0, joinsAndLeaves: 0, bot: 0, reactions: 0, bytes: 0 };
for (const ch of ws.channels) {
  for (let d = 0; d < ws.spec.days; d++) {
    for (const m of generateDay(ws, ch, d)) {
      counts.total++;
      if (m.subtype === 'channel_join' || m.subtype === 'channel_leave') counts.joinsAndLeaves++;
      else if (m.subtype === 'bot_message') counts.bot++;
      else if (m.thread_ts && m.thread_ts !== m.ts) counts.replies++;
      else counts.topLevel++;
      counts.reactions += m.reactions?.length ?? 0;
      counts.bytes += m.text.length;
    }
  }
  sample();
}
const elapsed = (performance.now() - started) / 1000;
const maxRssKb = process.resourceUsage().maxRSS;
console.log(
  JSON.stringify(
    {
      node: process.version,
      spec: { members, channels, days, messages },
      counts,
      workspaceSeconds: +(workspaceMs / 1000).toFixed(2),
      elapsedSeconds: +elapsed.toFixed(2),
      messagesPerSecond: Math.round(counts.total / elapsed),
      peakRssMB: Math.round(Math.max(peakRss, maxRssKb * 1024) / 1024 / 1024),
    },
    null,
    2,
  ),
);
