/**
 * Admin password hashing with scrypt (node:crypto), stored as
 * `scrypt$<N>$<r>$<p>$<salt base64>$<key base64>` so that the cost can be raised later without
 * breaking stored hashes. `quin admin hash-password` prints one for QUIN_ADMIN_PASSWORD_HASH.
 */
import crypto from 'node:crypto';
import { promisify } from 'node:util';
import { createError } from '../errors';

const scrypt = promisify(crypto.scrypt) as (
  pw: crypto.BinaryLike,
  salt: crypto.BinaryLike,
  len: number,
  opts: crypto.ScryptOptions,
) => Promise<Buffer>;

export const SCRYPT_DEFAULTS = { N: 2 ** 15, r: 8, p: 1, keyLength: 32 } as const;

interface ParsedHash {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

export function parsePasswordHash(stored: string): ParsedHash {
  const parts = stored.trim().split('$');
  const [tag, n, r, p, salt, key] = parts;
  const nums = [n, r, p].map(Number);
  if (parts.length !== 6 || tag !== 'scrypt' || nums.some((v) => !Number.isInteger(v) || v < 1) || !salt || !key) {
    throw createError('CONFIG_INVALID', 'QUIN_ADMIN_PASSWORD_HASH: not an scrypt hash made by `quin admin hash-password`');
  }
  return { N: nums[0]!, r: nums[1]!, p: nums[2]!, salt: Buffer.from(salt, 'base64'), key: Buffer.from(key, 'base64') };
}

const maxmem = (N: number, r: number) => 128 * N * r * 2 + 1024 * 1024;

export async function hashPassword(password: string, cost: { N: number; r: number; p: number } = SCRYPT_DEFAULTS): Promise<string> {
  if (password.length === 0) throw createError('INVALID_INPUT', 'the password is empty');
  const salt = crypto.randomBytes(16);
  const key = await scrypt(password.normalize('NFC'), salt, SCRYPT_DEFAULTS.keyLength, { ...cost, maxmem: maxmem(cost.N, cost.r) });
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Constant-time comparison; false (never a throw) for a wrong password. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const h = parsePasswordHash(stored);
  const key = await scrypt(password.normalize('NFC'), h.salt, h.key.length, { N: h.N, r: h.r, p: h.p, maxmem: maxmem(h.N, h.r) });
  return key.length === h.key.length && crypto.timingSafeEqual(key, h.key);
}

/** A password that is easy to type and has ~120 bits of entropy. */
export function generatePassword(): string {
  return crypto.randomBytes(15).toString('base64url').replace(/[-_]/g, 'x');
}
