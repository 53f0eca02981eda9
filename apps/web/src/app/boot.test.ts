import { afterEach, describe, expect, it, vi } from 'vitest';
import { dashboardPage, firstDataPage, renderWhen } from './boot.ts';

afterEach(() => vi.useRealTimers());

describe('cold load', () => {
  it('names the main page a path opens, or none off the dashboard', () => {
    expect(dashboardPage('/')).toBe('home');
    expect(dashboardPage('/dashboard/home')).toBe('home');
    expect(dashboardPage('/dashboard/members/U123')).toBe('members');
    expect(dashboardPage('/auth/login')).toBeNull();
    // Its first data: the page's own on the page, the frame's only under it.
    expect(firstDataPage('/')).toBe('home');
    expect(firstDataPage('/dashboard/members/')).toBe('members');
    expect(firstDataPage('/dashboard/members/U123')).toBe('');
    expect(firstDataPage('/auth/login')).toBeNull();
  });

  it('renders when the code and the data are in, waiting for the data no longer than its grace', async () => {
    vi.useFakeTimers();
    const done = vi.fn();
    let code!: () => void;
    let data!: () => void;
    void renderWhen(new Promise<void>((r) => (code = r)), new Promise<void>((r) => (data = r)), 300).then(
      done,
    );
    // The data alone is not enough: the code must be in.
    data();
    await vi.advanceTimersByTimeAsync(1000);
    expect(done).not.toHaveBeenCalled();
    code();
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toHaveBeenCalledTimes(1);

    // Data that does not come (or fails) holds the first render for the grace only.
    const late = vi.fn();
    void renderWhen(Promise.resolve(), new Promise(() => {}), 300).then(late);
    await vi.advanceTimersByTimeAsync(299);
    expect(late).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(late).toHaveBeenCalledTimes(1);
    const failed = vi.fn();
    void renderWhen(Promise.reject(new Error('chunk')), Promise.reject(new Error('api')), 300).then(failed);
    await vi.advanceTimersByTimeAsync(0);
    expect(failed).toHaveBeenCalledTimes(1);
  });
});
