import { describe, expect, it } from 'vitest';
import { membersDataResponse } from '@flywheel/shared/members';
import { fixture, reply } from './fixture.ts';
import { member } from './workspace-fixtures.ts';

describe('fixture', () => {
  it('passes a fixture that matches its schema through unchanged', () => {
    const data = { data: [member('U1', 'Ada Lovelace')], total: 1, page: 1, page_size: 5 };
    expect(fixture(membersDataResponse, data)).toBe(data);
    expect(reply(membersDataResponse, data, { delayMs: 5 })).toEqual({ body: data, delayMs: 5 });
  });

  it('fails on a fixture that drifted from the contract, naming the field', () => {
    const drifted = { data: [], total: '1', page: 1, page_size: 5 } as unknown as { total: number };
    expect(() => fixture(membersDataResponse, drifted as never)).toThrow(/total/);
  });
});
