/** The generated admin password: printed when made, kept in clear only until the first sign-in. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { verifyPassword } from './password';
import { adminCredentials, ensureAdminPassword, forgetInitialPassword, initialPasswordFile, pendingInitialPassword } from './secrets';

const config = () => ({
  dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'quin-secrets-')),
  sessionSecret: undefined,
  adminUser: 'admin',
  adminPasswordHash: undefined,
});

describe('the generated admin password', () => {
  it('is kept (mode 0600) beside its hash until the first sign-in, and only made once', async () => {
    const c = config();
    const password = (await ensureAdminPassword(c))!;
    expect(password.length).toBeGreaterThanOrEqual(16);
    const file = initialPasswordFile(c);
    expect(fs.readFileSync(file, 'utf8').trim()).toBe(password);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(await verifyPassword(password, adminCredentials(c).hash!)).toBe(true);
    expect(pendingInitialPassword(c)).toBe(file);
    expect(await ensureAdminPassword(c)).toBeNull();
    forgetInitialPassword(c);
    expect(fs.existsSync(file)).toBe(false);
    expect(pendingInitialPassword(c)).toBeNull();
    // A reset makes a new one, kept the same way.
    const again = (await ensureAdminPassword(c, { reset: true }))!;
    expect(again).not.toBe(password);
    expect(pendingInitialPassword(c)).toBe(file);
  });

  it('is none of this when a hash is configured', async () => {
    const c = { ...config(), adminPasswordHash: 'scrypt$x' };
    expect(await ensureAdminPassword(c)).toBeNull();
    expect(pendingInitialPassword(c)).toBeNull();
  });
});
