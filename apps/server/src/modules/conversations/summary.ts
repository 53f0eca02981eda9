import OpenAI from 'openai';
import { truncateText } from '@flywheel/shared/text';
import type { Config } from '../../config.ts';

/** A thread as the summarizer reads it: names readable, oldest first, the parent first. */
export type ThreadText = {
  channelName: string;
  lines: { name: string; text: string }[];
};

export type Summary = { summary: string; kind: 'ai' | 'extractive'; model: string | null };

/** The most a thread sends to the model: its first line and the newest lines that fit. */
const MAX_PROMPT_CHARS = 24_000;
const MAX_LINE_CHARS = 2_000;

const SYSTEM_PROMPT = [
  'You summarize a Slack thread for the administrator of an online community.',
  'Write 3 to 6 short bullet points in plain text: what was asked or announced, the main answers and',
  'decisions, who contributed what (use the names given), and any question still open. Do not invent facts.',
  'Answer in the language of the thread.',
].join(' ');

const clip = (s: string, n: number) => truncateText(s, n);

/** '0 replies', '1 reply', '2 replies'. */
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The thread as the prompt's user message: "Name: text" lines, cut to MAX_PROMPT_CHARS (newest kept). */
export function threadPrompt(t: ThreadText): string {
  const lines = t.lines.map((l) => `${l.name}: ${clip(l.text.replace(/\s+/g, ' ').trim(), MAX_LINE_CHARS)}`);
  const head = `Thread in #${t.channelName}, ${plural(Math.max(0, t.lines.length - 1), 'reply', 'replies')}.\n${lines[0] ?? ''}`;
  const rest: string[] = [];
  let size = head.length;
  for (let i = lines.length - 1; i >= 1; i--) {
    size += lines[i]!.length + 1;
    if (size > MAX_PROMPT_CHARS) {
      rest.unshift(`(${i} earlier replies left out)`);
      break;
    }
    rest.unshift(lines[i]!);
  }
  return [head, ...rest].join('\n');
}

/** The model gave no answer within LLM_TIMEOUT_MS (the one deadline of a summary, the answer's body included). */
export class ModelTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`the model did not answer within ${timeoutMs} ms`);
    this.name = 'ModelTimeoutError';
  }
}

/**
 * An OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, vLLM, ...), or null when none is configured.
 * One attempt per summary and one deadline over all of it: the SDK's own retries would multiply the wait (two
 * attempts of LLM_TIMEOUT_MS each), and its timeout stops at the answer's headers, so a model that sends headers
 * and then stalls would hold the request for ever; the AbortSignal covers the body too.
 */
export function llmClient(config: Config['llm']) {
  if (!config) return null;
  const client = new OpenAI({
    baseURL: config.baseUrl,
    // Local servers take any key; the library insists on one.
    apiKey: config.apiKey ?? 'not-needed',
    timeout: config.timeoutMs,
    maxRetries: 0,
  });
  return {
    model: config.model,
    timeoutMs: config.timeoutMs,
    async summarize(t: ThreadText): Promise<string> {
      const signal = AbortSignal.timeout(config.timeoutMs);
      let res: OpenAI.Chat.Completions.ChatCompletion;
      try {
        res = await client.chat.completions.create(
          {
            model: config.model,
            temperature: 0.2,
            max_tokens: 600,
            messages: [
              { role: 'system', content: SYSTEM_PROMPT },
              { role: 'user', content: threadPrompt(t) },
            ],
          },
          { signal },
        );
      } catch (err) {
        if (signal.aborted || err instanceof OpenAI.APIConnectionTimeoutError)
          throw new ModelTimeoutError(config.timeoutMs);
        throw err;
      }
      const text = res.choices[0]?.message?.content?.trim();
      if (!text) throw new Error('the model answered with no text');
      return text;
    },
  };
}
export type LlmClient = NonNullable<ReturnType<typeof llmClient>>;

const STOP = new Set(
  'a an and are as at be but by can could did do does for from had has have how i if in is it its just me my no not of on or our so that the their them there they this to too was we were what when where which who why will with would you your yes ok okay thanks thank please'.split(
    ' ',
  ),
);
const wordsOf = (s: string) =>
  (s.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? []).filter((w) => w.length > 2 && !STOP.has(w));

/** Sentences ending in a question mark. */
const questionsIn = (s: string) =>
  (s.match(/[^.!?\n]*\?/g) ?? []).map((q) => q.trim()).filter((q) => wordsOf(q).length >= 2);

/**
 * A summary without a model: who took part, the replies that share most words with the whole thread (the
 * most representative, at most three, in thread order), and the questions nobody else answered after.
 */
export function extractiveSummary(t: ThreadText, note?: string): string {
  const [first, ...replies] = t.lines;
  const out: string[] = [
    note ??
      'Extractive summary (no AI model is configured): the replies most representative of the thread, picked from its own words.',
  ];
  if (!first) return [...out, 'The thread is empty.'].join('\n');
  // Who replied (the starter counts only if they replied too), most replies first.
  const counts = new Map<string, number>();
  for (const l of replies) counts.set(l.name, (counts.get(l.name) ?? 0) + 1);
  const people = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([n]) => n);
  out.push(
    replies.length === 0
      ? `${first.name} started it in #${t.channelName}; no replies yet.`
      : `${first.name} started it in #${t.channelName}; ${plural(replies.length, 'reply', 'replies')} from ${plural(people.length, 'person', 'people')} (${people.slice(0, 8).join(', ')}${people.length > 8 ? ', …' : ''}).`,
  );
  out.push(`Started with: "${clip(first.text.replace(/\s+/g, ' ').trim(), 280)}"`);

  // Term frequencies over the thread; a reply scores the mean weight of its distinct words.
  const tf = new Map<string, number>();
  for (const l of t.lines) for (const w of new Set(wordsOf(l.text))) tf.set(w, (tf.get(w) ?? 0) + 1);
  const scored = replies
    .map((l, i) => {
      const ws = [...new Set(wordsOf(l.text))];
      const score = ws.length ? ws.reduce((s, w) => s + (tf.get(w) ?? 0) - 1, 0) / Math.sqrt(ws.length) : 0;
      return { l, i, score };
    })
    .filter((r) => r.score > 0 || replies.length <= 3)
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, 3)
    .sort((a, b) => a.i - b.i);
  if (scored.length) {
    out.push('Most representative replies:');
    for (const r of scored) out.push(`- ${r.l.name}: "${clip(r.l.text.replace(/\s+/g, ' ').trim(), 240)}"`);
  }

  // Open questions: asked, and nobody but the asker wrote after.
  const open: string[] = [];
  t.lines.forEach((l, i) => {
    const answered = t.lines.slice(i + 1).some((later) => later.name !== l.name);
    if (answered) return;
    for (const q of questionsIn(l.text)) open.push(`- ${l.name}: "${clip(q, 200)}"`);
  });
  out.push(open.length ? 'Open questions:' : 'Open questions: none.');
  out.push(...open.slice(0, 3));
  return out.join('\n');
}
