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
    // Written whole under another name, then linked into place: of processes starting together one key wins,
    // and none reads a key file half written (a plain exclusive create left the others an EEXIST, or an empty
    // file for a moment).
    const draft = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
    fs.writeFileSync(draft, crypto.randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    try {
      fs.linkSync(draft, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      fs.rmSync(draft, { force: true });
    }
  }
  return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
}

/** The key anonymous polls' voters are hashed with (each poll derives its own from it): from the secrets key. */
export const pollVoterKey = (config: Config): Buffer =>
  crypto.createHmac('sha256', secretsKey(config)).update('flywheel poll voters').digest();
