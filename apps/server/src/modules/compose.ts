import type { Kernel } from '../kernel.ts';
import type { Module } from './module.ts';
import type { ServiceName, Services } from './services.ts';

/**
 * The order modules' services are built in: every module after the modules providing what it `needs`, otherwise in
 * the list's order (a depth-first topological sort). Throws, naming the modules and services, when a service is
 * needed that no module provides, when two modules provide the same service, or when needs form a cycle.
 */
export function compositionOrder(modules: readonly Module[]): Module[] {
  const providers = new Map<ServiceName, Module>();
  for (const m of modules)
    for (const name of m.provides ?? []) {
      const other = providers.get(name);
      if (other)
        throw new Error(`Service "${name}" is provided by two modules: "${other.name}" and "${m.name}"`);
      providers.set(name, m);
    }
  for (const m of modules)
    for (const need of m.needs ?? [])
      if (!providers.has(need))
        throw new Error(`Module "${m.name}" needs the service "${need}", which no module provides`);

  const order: Module[] = [];
  const done = new Set<Module>();
  // The modules being visited, each with the service its successor on the path needs from it.
  const path: { module: Module; via?: ServiceName }[] = [];
  const visit = (m: Module, via?: ServiceName) => {
    if (done.has(m)) return;
    const at = path.findIndex((p) => p.module === m);
    if (at >= 0) {
      const cycle = [...path.slice(at), { module: m, via }];
      const steps = cycle
        .slice(0, -1)
        .map((p, i) => `"${p.module.name}" needs "${cycle[i + 1]!.via}" from "${cycle[i + 1]!.module.name}"`);
      throw new Error(
        `Modules' needs form a cycle: ${cycle.map((p) => p.module.name).join(' -> ')} (${steps.join(', ')})`,
      );
    }
    path.push({ module: m, via });
    for (const need of m.needs ?? []) visit(providers.get(need)!, need);
    path.pop();
    done.add(m);
    order.push(m);
  };
  for (const m of modules) visit(m);
  return order;
}

/**
 * Builds every module's services in composition order: each module's `services` gets the kernel and, of the services
 * built so far, exactly those it `needs`; what it returns must be exactly what it `provides`.
 */
export async function composeServices(kernel: Kernel, modules: readonly Module[]): Promise<Services> {
  const services: Partial<Services> = {};
  for (const m of compositionOrder(modules)) {
    const declared = [...(m.provides ?? [])].sort();
    if (!m.services) {
      if (declared.length > 0) throw new Error(`Module "${m.name}" provides services but has no services()`);
      continue;
    }
    const deps = Object.fromEntries((m.needs ?? []).map((name) => [name, services[name]]));
    const built = await m.services(kernel, deps as Services);
    const keys = Object.keys(built).sort();
    if (keys.join() !== declared.join())
      throw new Error(
        `Module "${m.name}" built the services [${keys.join(', ')}] but provides [${declared.join(', ')}]`,
      );
    Object.assign(services, built);
  }
  return services as Services;
}
