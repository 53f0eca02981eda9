import type { Module } from '../modules/module.ts';
import type { JobDefinition } from './queue.ts';

/**
 * Every job of the process: each module's static definitions (see `defineJob`), in module order. Every role
 * registers them all (any process can send any job); workers consume them. Ids are unique.
 */
export function registeredJobs(modules: readonly Module[]): JobDefinition[] {
  const jobs = modules.flatMap((m) => m.jobs ?? []);
  const seen = new Set<string>();
  for (const job of jobs) {
    if (seen.has(job.id)) throw new Error(`Two jobs share the id ${job.id}`);
    seen.add(job.id);
  }
  return jobs;
}
