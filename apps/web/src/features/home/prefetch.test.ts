import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { botDetailsResponse } from '@flywheel/shared/analytics';
import { restoreSession } from '../../lib/session.ts';
import { mockApi, type MockReply } from '../../testing/mock-api.ts';
import { reply } from '../../testing/fixture.ts';
import { seedSession } from '../../testing/session-fixtures.ts';
import { prefetchHome } from './prefetch.ts';

afterEach(() => vi.unstubAllGlobals());

describe("Home's first data", () => {
  it("fetches the bot's picture once its address is known, before the card draws it", async () => {
    seedSession();
    restoreSession();
    const loaded: string[] = [];
    vi.stubGlobal(
      'Image',
      class {
        set src(value: string) {
          loaded.push(value);
        }
      },
    );
    const never = () => new Promise<MockReply>(() => {});
    mockApi({
      'GET /alterbot/getbotdetails/T001': reply(botDetailsResponse, {
        data: { bot_name: 'Flywheel', bot_image: '/api/v0/public/flywheel-bot.png', use_custom: false },
      }),
      'GET /*': never,
      'POST /*': never,
    });
    const qc = new QueryClient();
    prefetchHome(qc, 'T001');
    await vi.waitFor(() => expect(loaded).toEqual(['/api/v0/public/flywheel-bot.png']));
  });
});
