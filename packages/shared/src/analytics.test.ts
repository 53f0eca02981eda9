import { describe, expect, it } from 'vitest';
import { BOT_NAME_MESSAGES, botNameError } from './analytics.ts';

describe('bot name rules', () => {
  it.each([
    ['a', BOT_NAME_MESSAGES.length],
    ['a'.repeat(21), BOT_NAME_MESSAGES.length],
    ['flywheel bot', BOT_NAME_MESSAGES.charset],
    ['-flywheel', BOT_NAME_MESSAGES.edges],
    ['flywheel.', BOT_NAME_MESSAGES.edges],
    ['fly__wheel', BOT_NAME_MESSAGES.doubles],
    ['fly.-wheel', BOT_NAME_MESSAGES.doubles],
  ])('%s -> %s', (name, message) => {
    expect(botNameError(name)).toBe(message);
  });
  it.each(['fw', 'flywheel-bot', 'fly.wheel_2', 'A1b2C3d4E5f6G7h8I9j0'])('%s is valid', (name) => {
    expect(botNameError(name)).toBeNull();
  });
});
