import { describe, expect, it } from 'vitest';
import { compositionOrder, composeServices } from './compose.ts';
import { modules } from './index.ts';
import { defineModule, type Module } from './module.ts';
import type { Kernel } from '../kernel.ts';
import type { ServiceName, Services } from './services.ts';

/** Every name of the registry (a name added there and not here fails the type check). */
const registry: Record<ServiceName, true> = {
  auth: true,
  workspaces: true,
  install: true,
  events: true,
  historyImport: true,
  bot: true,
  tags: true,
  membersList: true,
  buckets: true,
  memberDetail: true,
  analytics: true,
  tasks: true,
  audience: true,
  delivery: true,
  deliveryEngine: true,
  idempotency: true,
  actions: true,
  conversations: true,
  forms: true,
  workflows: true,
  polls: true,
  pollJobs: true,
  webhooks: true,
  audit: true,
  notifications: true,
  emit: true,
  digest: true,
};

describe('the module graph', () => {
  it("satisfies every module's needs, each service of the registry with one provider", () => {
    const provided = modules.flatMap((m) => m.provides ?? []);
    expect(new Set(provided).size).toBe(provided.length);
    expect([...provided].sort()).toEqual(Object.keys(registry).sort());
    for (const m of modules)
      for (const need of m.needs ?? []) expect(provided, `${m.name} needs ${need}`).toContain(need);
  });

  it('composes every module once, each after the providers of what it needs', () => {
    const order = compositionOrder(modules);
    expect(new Set(order)).toEqual(new Set(modules));
    expect(order).toHaveLength(modules.length);
    const position = new Map(order.map((m, i) => [m, i]));
    const providerOf = new Map(modules.flatMap((m) => (m.provides ?? []).map((s) => [s, m] as const)));
    for (const m of modules)
      for (const need of m.needs ?? [])
        expect(position.get(providerOf.get(need)!)!, `${m.name} after the provider of ${need}`).toBeLessThan(
          position.get(m)!,
        );
  });

  it('keeps the list order where needs allow it', () => {
    const a = defineModule({
      name: 'a',
      needs: ['tags'],
      provides: ['tasks'],
      services: () => ({ tasks: {} as Services['tasks'] }),
    });
    const b = defineModule({
      name: 'b',
      provides: ['tags'],
      services: () => ({ tags: {} as Services['tags'] }),
    });
    const c = defineModule({ name: 'c' });
    expect(compositionOrder([c, a, b]).map((m) => m.name)).toEqual(['c', 'b', 'a']);
  });

  it('fails clearly on a cycle, a missing provider, two providers, or services not as declared', async () => {
    const ping = defineModule({
      name: 'ping',
      needs: ['tasks'],
      provides: ['tags'],
      services: () => ({ tags: {} as Services['tags'] }),
    });
    const pong = defineModule({
      name: 'pong',
      needs: ['tags'],
      provides: ['tasks'],
      services: () => ({ tasks: {} as Services['tasks'] }),
    });
    expect(() => compositionOrder([ping, pong])).toThrow(
      "Modules' needs form a cycle: ping -> pong -> ping " +
        '("ping" needs "tasks" from "pong", "pong" needs "tags" from "ping")',
    );
    expect(() => compositionOrder([ping])).toThrow(
      `Module "ping" needs the service "tasks", which no module provides`,
    );
    expect(() => compositionOrder([pong, pong])).toThrow(
      `Service "tasks" is provided by two modules: "pong" and "pong"`,
    );

    const liar = { ...pong, needs: [], services: () => ({ tags: {} as Services['tags'] }) } as Module;
    await expect(composeServices({} as Kernel, [liar])).rejects.toThrow(
      `Module "pong" built the services [tags] but provides [tasks]`,
    );
  });

  it('gives a module exactly the services it needs', async () => {
    let seen: string[] = [];
    const provider = defineModule({
      name: 'provider',
      provides: ['tags', 'tasks'],
      services: () => ({ tags: {} as Services['tags'], tasks: {} as Services['tasks'] }),
    });
    const user = defineModule({
      name: 'user',
      needs: ['tags'],
      services: (_k, deps) => {
        seen = Object.keys(deps);
        // @ts-expect-error: `tasks` was not declared in `needs`, so `deps` has no such service.
        void deps.tasks;
        return {};
      },
    });
    const services = await composeServices({} as Kernel, [user, provider]);
    expect(seen).toEqual(['tags']);
    expect(Object.keys(services).sort()).toEqual(['tags', 'tasks']);
  });

  it('types what a module returns against what it provides', () => {
    defineModule({
      name: 'forgetful',
      provides: ['tags'],
      // @ts-expect-error: the module provides `tags` but its services() does not build it.
      services: () => ({}),
    });
  });
});
