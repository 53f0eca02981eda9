import { waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { dataOf, tagSchema } from '@flywheel/shared/directory';
import { reply } from '../testing/fixture.ts';
import { mockApi } from '../testing/mock-api.ts';
import { renderUi } from '../testing/render-ui.tsx';
import { seedSession } from '../testing/session-fixtures.ts';
import { useChosenTags } from './TagPicker.tsx';

describe('useChosenTags', () => {
  it('gives each picked id its listed name, and keeps an id not listed yet (a tag made a moment ago)', async () => {
    seedSession();
    mockApi({
      'GET /tags/gettags/T001': reply(dataOf(tagSchema), {
        data: [
          { id: 1, name: 'vip' },
          { id: 2, name: 'mentors' },
        ],
      }),
    });
    let chosen: ReturnType<typeof useChosenTags> = () => [];
    let listed = false;
    function Probe() {
      chosen = useChosenTags();
      listed = chosen([1])[0]!.name === 'vip';
      return null;
    }
    renderUi(<Probe />);
    await waitFor(() => expect(listed).toBe(true));
    expect(chosen([2, 9, 1])).toEqual([
      { id: 2, name: 'mentors' },
      { id: 9, name: '' },
      { id: 1, name: 'vip' },
    ]);
    expect(chosen([])).toEqual([]);
  });
});
