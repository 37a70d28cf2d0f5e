/**
 * Secrets of the web service. Each comes from configuration when set there; otherwise it is generated
 * once and kept in `<dataDir>/secrets/` (mode 0600), so that a fresh `npm start` is secure without any
 * set-up and a restart keeps sessions and the admin password. Several web processes on one data
 * directory agree because the file is created exclusively (the loser reads the winner's value).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config';
import { generatePassword, hashPassword, parsePasswordHash } from './password';

type SecretsConfig = Pick<Config, 'dataDir' | 'sessionSecret' | 'adminUser' | 'adminPasswordHash'>;

export const secretsDir = (config: Pick<Config, 'dataDir'>) => path.join(config.dataDir, 'secrets');
const adminHashFile = (config: Pick<Config, 'dataDir'>) => path.join(secretsDir(config), 'admin-password.scrypt');

/** Reads `file`, or creates it with `make()` when absent (exclusively, so concurrent creators agree). */
function readOrCreate(file: string, make: () => string): string {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    fs.writeFileSync(file, make() + '\n', { flag: 'wx', mode: 0o600 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  return fs.readFileSync(file, 'utf8').trim();
}

const secretCache = new Map<string, string>();

/** The key that signs session cookies and CSRF tokens. */
export function sessionSecret(config: SecretsConfig): string {
  if (config.sessionSecret) return config.sessionSecret;
  const file = path.join(secretsDir(config), 'session-secret');
  let s = secretCache.get(file);
  if (!s) {
    s = readOrCreate(file, () => crypto.randomBytes(32).toString('base64url'));
    secretCache.set(file, s);
  }
  return s;
}

export interface AdminCredentials {
  user: string;
  /** scrypt hash; null when no password is configured or generated yet (sign-in then always fails). */
  hash: string | null;
  source: 'config' | 'generated' | 'none';
}

export function adminCredentials(config: SecretsConfig): AdminCredentials {
  if (config.adminPasswordHash) {
    parsePasswordHash(config.adminPasswordHash); // a malformed hash fails loudly, naming the setting
    return { user: config.adminUser, hash: config.adminPasswordHash, source: 'config' };
  }
  try {
    return { user: config.adminUser, hash: fs.readFileSync(adminHashFile(config), 'utf8').trim(), source: 'generated' };
  } catch {
    return { user: config.adminUser, hash: null, source: 'none' };
  }
}

/**
 * The generated admin password in clear, kept (mode 0600, in the 0700 secrets folder) only until the
 * first sign-in, so that a password whose one printing was missed is not lost: every start says where
 * it is until then. (Jenkins' initialAdminPassword, GitLab's initial_root_password do the same.)
 */
export const initialPasswordFile = (config: Pick<Config, 'dataDir'>) => path.join(secretsDir(config), 'initial-admin-password');

function writePrivate(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text, { mode: 0o600 });
  fs.renameSync(tmp, file);
}

/**
 * When no admin password is configured and none was generated before, generates one, stores its
 * hash, keeps the password in initialPasswordFile until the first sign-in and returns it (to be
 * printed at once). Returns null otherwise.
 */
export async function ensureAdminPassword(config: SecretsConfig, opts: { reset?: boolean } = {}): Promise<string | null> {
  if (config.adminPasswordHash) return null;
  const file = adminHashFile(config);
  if (!opts.reset && fs.existsSync(file)) return null;
  const password = generatePassword();
  const hash = await hashPassword(password);
  // The clear copy first: a start stopped between the two writes still finds its password.
  writePrivate(initialPasswordFile(config), password + '\n');
  writePrivate(file, hash + '\n');
  return password;
}

/** The file holding the generated password while nobody has signed in with it, else null. */
export function pendingInitialPassword(config: SecretsConfig): string | null {
  if (config.adminPasswordHash) return null;
  const file = initialPasswordFile(config);
  return fs.existsSync(file) && fs.existsSync(adminHashFile(config)) ? file : null;
}

/** After a successful sign-in: the clear copy of the generated password is no longer needed. */
export function forgetInitialPassword(config: Pick<Config, 'dataDir'>): void {
  fs.rmSync(initialPasswordFile(config), { force: true });
}

/** A short fingerprint of the current password hash: sessions signed under an older password stop working. */
export function credentialFingerprint(secret: string, hash: string | null): string {
  return crypto
    .createHmac('sha256', secret)
    .update(`pw:${hash ?? ''}`)
    .digest('base64url')
    .slice(0, 16);
}
