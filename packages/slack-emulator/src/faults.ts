/** Fault injection for the Web API: random errors, 5xx, latency and dropped responses. */

export type FaultKind = 'error' | '5xx' | 'drop' | 'ratelimited' | 'lost';
export type FaultOptions = {
  /** Share of calls answered ok:false with `errorCode` (default internal_error). */
  errorRate?: number;
  errorCode?: string;
  /** Share of calls answered with HTTP 500/503. */
  http5xxRate?: number;
  /** Share of calls whose connection is closed without an answer (the call is not applied). */
  dropRate?: number;
  /** Share of calls answered HTTP 429 + Retry-After (`retryAfterSeconds`, default 1), not applied. */
  ratelimitedRate?: number;
  retryAfterSeconds?: number;
  /**
   * Share of calls that ARE applied, then answered with HTTP 503 or a cut connection (half each): the caller
   * cannot tell whether Slack acted, as when an answer is lost on the way back.
   */
  lostAnswerRate?: number;
  /** Added latency: fixed ms or [min, max]. */
  latencyMs?: number | [number, number];
  /** Limit faults to these methods (default all). */
  methods?: string[];
};
export type QueuedFault = { kind: FaultKind; method?: string; error?: string; retryAfter?: number };

export function createFaults(initial: FaultOptions = {}) {
  let options: FaultOptions = { ...initial };
  const queue: QueuedFault[] = [];
  const applies = (method: string): boolean => !options.methods || options.methods.includes(method);

  /** The fault to apply to this call, if any (queued one-shot faults first). */
  const pick = (method: string): QueuedFault | undefined => {
    const i = queue.findIndex((q) => !q.method || q.method === method);
    if (i >= 0) return queue.splice(i, 1)[0];
    if (!applies(method)) return undefined;
    const roll = Math.random();
    const drop = options.dropRate ?? 0;
    const http = options.http5xxRate ?? 0;
    const error = options.errorRate ?? 0;
    const limited = options.ratelimitedRate ?? 0;
    const lost = options.lostAnswerRate ?? 0;
    if (roll < drop) return { kind: 'drop' };
    if (roll < drop + http) return { kind: '5xx' };
    if (roll < drop + http + error) return { kind: 'error', error: options.errorCode };
    if (roll < drop + http + error + limited)
      return { kind: 'ratelimited', retryAfter: options.retryAfterSeconds ?? 1 };
    if (roll < drop + http + error + limited + lost) return { kind: 'lost' };
    return undefined;
  };

  const latency = (method: string): number => {
    const l = options.latencyMs;
    if (!l || !applies(method)) return 0;
    return Array.isArray(l) ? l[0] + Math.random() * (l[1] - l[0]) : l;
  };

  return {
    pick,
    latency,
    options: () => options,
    configure: (next: FaultOptions) => {
      options = { ...next };
    },
    enqueue: (...faults: QueuedFault[]) => queue.push(...faults),
    clear: () => {
      options = {};
      queue.length = 0;
    },
  };
}

export type Faults = ReturnType<typeof createFaults>;
