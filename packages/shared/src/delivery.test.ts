import { describe, expect, it } from 'vitest';
import { dmManyBody, hasInvalidCharacters, receiptStatus, sendMessageBody } from './delivery.ts';

describe('delivery contracts', () => {
  it('finds control characters and lone surrogates, accepts text, emoji and newlines', () => {
    expect(hasInvalidCharacters('Hello *world*\n\t:tada: 🎉 café')).toBe(false);
    expect(hasInvalidCharacters('bell \u0007')).toBe(true);
    expect(hasInvalidCharacters('nul \u0000')).toBe(true);
    expect(hasInvalidCharacters('half \uD83C')).toBe(true);
    expect(hasInvalidCharacters('\uDF89 tail')).toBe(true);
  });

  it('receipt status from its counts', () => {
    const r = (t: number, s: number, f: number) =>
      receiptStatus({ total_recipient_count: t, successful_recipient_count: s, failed_recipient_count: f });
    expect(r(10, 7, 3)).toBe('Processed');
    expect(r(3, 1, 0)).toBe('33% Processed');
    expect(r(0, 0, 0)).toBe('Processed');
  });

  it('a sender stored as b or a is read as bot or admin; an admin needs admin_user', () => {
    const base = { team_id: 'T1', users: ['U1'], text: 'hi' };
    expect(dmManyBody.parse({ ...base, sender: 'b' }).sender).toBe('bot');
    expect(dmManyBody.safeParse({ ...base, sender: 'a' }).error?.issues[0]?.message).toBe(
      'Choose which admin sends (admin_user)',
    );
    expect(dmManyBody.safeParse({ ...base, sender: 'x' }).error?.issues[0]?.message).toBe('Choose a Sender');
  });

  it('a send needs a target and a message', () => {
    const none = sendMessageBody.safeParse({ team_id: 'T1', sender: 'bot', message: 'x' });
    expect(none.error?.issues.map((i) => i.message)).toContain(
      'Choose at least one member or channel or tag',
    );
    const empty = sendMessageBody.safeParse({
      team_id: 'T1',
      sender: 'bot',
      message: ' ',
      sendtoworkspace: true,
    });
    expect(empty.error?.issues.map((i) => i.message)).toContain('The message cannot be empty!');
  });
});
