import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';

/** The key that seals Slack tokens: SECRETS_KEY, or one generated once into DATA_DIR (embedded use). */
export function secretsKey(config: Config): Buffer {
  if (config.secretsKey) return config.secretsKey;
  const file = path.join(config.dataDir, 'secrets.key');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(config.dataDir, { recursive: true });
    fs.writeFileSync(file, crypto.randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  }
  return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
}

/** The key anonymous polls' voters are hashed with (each poll derives its own from it): from the secrets key. */
export const pollVoterKey = (config: Config): Buffer =>
  crypto.createHmac('sha256', secretsKey(config)).update('flywheel poll voters').digest();
