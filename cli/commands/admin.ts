/**
 * `quin admin hash-password`: prints the scrypt hash of a password for QUIN_ADMIN_PASSWORD_HASH
 * (read from stdin, or asked twice without echo on a terminal).
 * `quin admin reset-password`: replaces the generated admin password (the one `npm start` makes when
 * none is configured) with a new one, printed and kept in <dataDir>/secrets/initial-admin-password
 * until the next sign-in; every admin session is signed out.
 */
import readline from 'node:readline';
import { Writable } from 'node:stream';
import type { Command } from 'commander';
import { getConfig } from '../../lib/config';
import { createError } from '../../lib/errors';
import { hashPassword } from '../../lib/web/password';
import { ensureAdminPassword, initialPasswordFile } from '../../lib/web/secrets';

async function askHidden(prompt: string): Promise<string> {
  const muted = new Writable({ write: (_c, _e, cb) => cb() });
  const rl = readline.createInterface({ input: process.stdin, output: muted, terminal: true });
  process.stderr.write(prompt);
  try {
    return await new Promise<string>((resolve) => rl.question('', resolve));
  } finally {
    rl.close();
    process.stderr.write('\n');
  }
}

async function readStdin(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  return text.replace(/\r?\n$/, '');
}

async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) return readStdin();
  const a = await askHidden('password: ');
  const b = await askHidden('again: ');
  if (a !== b) throw createError('INVALID_INPUT', 'the two passwords differ');
  return a;
}

export function register(program: Command): void {
  const admin = program.command('admin').description('admin credentials of the web service');
  admin
    .command('hash-password')
    .description('print the scrypt hash of a password (stdin, or asked on a terminal) for QUIN_ADMIN_PASSWORD_HASH')
    .action(async () => {
      const password = await readPassword();
      if (password.length < 8) throw createError('INVALID_INPUT', 'use a password of at least 8 characters');
      process.stdout.write((await hashPassword(password)) + '\n');
    });
  admin
    .command('reset-password')
    .description('generate a new admin password (when QUIN_ADMIN_PASSWORD_HASH is not set) and print it once')
    .action(async () => {
      const config = getConfig();
      if (config.adminPasswordHash)
        throw createError('CONFLICT', 'the admin password comes from QUIN_ADMIN_PASSWORD_HASH: change that setting instead');
      const password = await ensureAdminPassword(config, { reset: true });
      process.stdout.write(`new password for admin user "${config.adminUser}": ${password}\n`);
      process.stderr.write(`(kept in ${initialPasswordFile(config)} until the next sign-in; every admin session is signed out)\n`);
    });
}
