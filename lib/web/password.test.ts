import { describe, expect, it } from 'vitest';
import { generatePassword, hashPassword, parsePasswordHash, verifyPassword } from './password';

const cheap = { N: 1024, r: 8, p: 1 };

describe('admin password hashing (scrypt)', () => {
  it('verifies the right password and rejects a wrong one', async () => {
    const h = await hashPassword('correct horse battery', cheap);
    expect(h).toMatch(/^scrypt\$1024\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(await verifyPassword('correct horse battery', h)).toBe(true);
    expect(await verifyPassword('correct horse batterY', h)).toBe(false);
    expect(await verifyPassword('', h)).toBe(false);
  });

  it('salts: the same password hashes differently each time', async () => {
    expect(await hashPassword('same', cheap)).not.toBe(await hashPassword('same', cheap));
  });

  it('names the setting when a configured hash is malformed', () => {
    expect(() => parsePasswordHash('bcrypt$abc')).toThrow(/QUIN_ADMIN_PASSWORD_HASH/);
    expect(() => parsePasswordHash('scrypt$x$8$1$c2FsdA==$a2V5')).toThrow(/QUIN_ADMIN_PASSWORD_HASH/);
  });

  it('uses the default cost, and generates long random passwords', async () => {
    expect(parsePasswordHash(await hashPassword('pw')).N).toBe(32768);
    const a = generatePassword();
    expect(a).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(generatePassword()).not.toBe(a);
  });
});
