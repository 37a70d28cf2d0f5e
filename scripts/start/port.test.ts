/** The port check of `npm start` / `npm run demo`: free, taken (naming the process that holds it), unusable host. */
import { spawn } from 'node:child_process';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { checkPort, portHolder } from './port.mjs';

const freePort = async () => {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
};

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

describe('checkPort', () => {
  it('is null for a free port', async () => {
    expect(await checkPort('127.0.0.1', await freePort())).toBeNull();
  });

  it('names the port, the process that holds it and what to set', async () => {
    const port = await freePort();
    const holder = spawn(process.execPath, ['-e', `require('net').createServer().listen(${port}, '127.0.0.1', () => console.log('up'))`], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    cleanup = () => holder.kill('SIGKILL');
    await new Promise<void>((r) => holder.stdout!.once('data', () => r()));
    expect(portHolder(port)?.pid).toBe(holder.pid);
    const message = await checkPort('127.0.0.1', port, 'npm run demo');
    expect(message).toBe(
      `port ${port} is in use (by pid ${holder.pid}: ${portHolder(port)!.command}); set PORT to a free port (e.g. PORT=${port + 1} npm run demo) or stop that process`,
    );
    expect(portHolder(port)!.command).toMatch(/^node -e /);
  });

  it('says when HOST is not an address of this machine', async () => {
    expect(await checkPort('192.0.2.1', await freePort())).toMatch(/^HOST 192\.0\.2\.1 is not an address of this machine; set HOST/);
  });
});
