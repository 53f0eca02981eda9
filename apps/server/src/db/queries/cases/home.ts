import { tasksRepo } from '../../../modules/home/repo.ts';
import { T, type QueryCase } from './common.ts';
import { ID, seedTasks } from './fixture.ts';

const file = 'home';

export const home: QueryCase[] = [
  { file, name: 'tasksRepo.list', run: (db) => tasksRepo(db).list(T) },
  {
    file,
    name: 'tasksRepo.find',
    seed: seedTasks,
    run: (db) => db.transaction((tx) => tasksRepo(db).find(tx, T, ID)),
  },
  {
    file,
    name: 'tasksRepo.create',
    run: (db) => tasksRepo(db).create(T, { title: 'Plan', description: 'Next steps', status: 'todo' }),
  },
  { file, name: 'tasksRepo.edit', run: (db) => tasksRepo(db).edit(T, ID, { title: 'Renamed' }) },
  { file, name: 'tasksRepo.move', seed: seedTasks, run: (db) => tasksRepo(db).move(T, ID, 'doing', 0) },
  {
    file,
    name: 'tasksRepo.remove',
    seed: (db) => seedTasks(db, 902),
    run: (db) => tasksRepo(db).remove(T, 902),
  },
];
