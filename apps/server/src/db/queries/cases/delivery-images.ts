import { imagesRepo } from '../../../modules/delivery/images-repo.ts';
import { T, type QueryCase } from './common.ts';
import { USER } from './fixture.ts';

const file = 'delivery-images';

export const deliveryImages: QueryCase[] = [
  {
    file,
    name: 'imagesRepo.save',
    run: (db) =>
      imagesRepo(db).save({
        fileId: 'F1',
        teamId: T,
        name: 'banner.png',
        url: 'https://files.example.com/F1/banner.png',
        bytes: 20_480,
        createdBy: USER,
      }),
  },
  { file, name: 'imagesRepo.known', run: (db) => imagesRepo(db).known(T, ['F1', 'F2']) },
];
