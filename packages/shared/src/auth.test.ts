import { describe, expect, it } from 'vitest';
import { loginBody, signupBody } from './auth.ts';

describe('auth contracts', () => {
  it('normalises the e-mail (trim, lower case)', () => {
    const v = signupBody.parse({
      email: '  Ann@Example.COM ',
      password: 'hunter2hunter2',
      username: 'Ann',
      country: 'France',
    });
    expect(v.email).toBe('ann@example.com');
  });

  it.each([
    [
      { email: 'x', password: 'hunter2hunter2', username: 'Ann', country: 'France' },
      'Enter a valid email address, like name@example.com',
    ],
    [
      { email: 'a@b.co', password: 'short', username: 'Ann', country: 'France' },
      'Password must be at least 8 characters',
    ],
    [
      { email: 'a@b.co', password: 'hunter2hunter2', username: 'Ann', country: '' },
      'Please select you country',
    ],
    [{ email: 'a@b.co', password: 'hunter2hunter2', username: 'Ann' }, 'Please select you country'],
  ])('signup refuses %o with a readable message', (input, message) => {
    const r = signupBody.safeParse(input);
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe(message);
  });

  it('login needs a password but does not judge its strength', () => {
    expect(loginBody.safeParse({ email: 'a@b.co', password: 'x' }).success).toBe(true);
    expect(loginBody.safeParse({ email: 'a@b.co', password: '' }).error?.issues[0]?.message).toBe(
      'Password is required',
    );
  });
});
