import { auditRepo } from '../../../modules/audit/repo.ts';
import { AT, T, type QueryCase } from './common.ts';
import { USER } from './fixture.ts';

const file = 'audit';

export const audit: QueryCase[] = [
  {
    file,
    name: 'auditRepo.insert',
    run: (db) =>
      auditRepo(db).insert([
        {
          teamId: T,
          at: AT,
          actorKind: 'user',
          actorUserId: USER,
          actorEmail: 'ada@example.com',
          actorLabel: null,
          action: 'tag.create',
          method: 'POST',
          route: '/api/v0/tags/:teamId',
          objects: { tag: 1 },
          status: 201,
          summary: 'Created tag Snapshot',
        },
      ]),
  },
  {
    file,
    name: 'auditRepo.page',
    run: (db) =>
      auditRepo(db).page(T, { actor: USER, kind: 'tag.create', from: '2026-01-01', to: '2026-01-15' }, 2, 50),
  },
  { file, name: 'auditRepo.batch', run: (db) => auditRepo(db).batch(T, { kind: 'tag.create' }, 1000, 500) },
  { file, name: 'auditRepo.facets', run: (db) => auditRepo(db).facets(T) },
  { file, name: 'auditRepo.deleteOlderThan', run: (db) => auditRepo(db).deleteOlderThan(AT) },
];
