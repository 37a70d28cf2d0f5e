// Is the web server's port free? Checked by `npm start` and `npm run demo` before anything else (and
// by the web server when its listen fails), so that a busy port ends the start with one plain message
// — which port, which process holds it when this user can see it, what to set — and a non-zero exit,
// never a restart loop.
import fs from 'node:fs';
import net from 'node:net';

/**
 * The process listening on TCP `port` (any address), read from /proc (Linux): the listening socket's
 * inode in /proc/net/tcp{,6}, then the process holding a descriptor on it. Null when unknown (another
 * user's process, or no /proc).
 * @param {number} port
 * @returns {{ pid: number, command: string } | null}
 */
export function portHolder(port) {
  const inodes = new Set();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
      if (cols.length < 10 || cols[3] !== '0A') continue; // 0A: LISTEN
      if (parseInt(cols[1].split(':').pop() ?? '', 16) === port && cols[9] !== '0') inodes.add(cols[9]);
    }
  }
  if (!inodes.size) return null;
  let pids = [];
  try {
    pids = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return null;
  }
  for (const pid of pids) {
    let fds = [];
    try {
      fds = fs.readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // gone, or another user's
    }
    for (const fd of fds) {
      let target = '';
      try {
        target = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      const m = /^socket:\[(\d+)\]$/.exec(target);
      if (m && inodes.has(m[1])) return { pid: Number(pid), command: commandOf(pid) };
    }
  }
  return null;
}

function commandOf(pid) {
  try {
    const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    const text = argv.map((a) => a.replace(/^.*\/(node|npm)$/, '$1')).join(' ');
    return text.length > 120 ? `${text.slice(0, 117)}...` : text;
  } catch {
    return '';
  }
}

/**
 * The message for a listen error on host:port, or null when the error is not about the address.
 * @param {NodeJS.ErrnoException} err
 * @param {string} host
 * @param {number} port
 * @param {string} [command] how the product was started, for the example (`npm start`, `npm run demo`)
 */
export function listenProblem(err, host, port, command = 'npm start') {
  const other = port >= 65535 ? port - 1 : port + 1;
  if (err.code === 'EADDRINUSE') {
    const holder = portHolder(port);
    const by = holder ? ` (by pid ${holder.pid}${holder.command ? `: ${holder.command}` : ''})` : '';
    return `port ${port} is in use${by}; set PORT to a free port (e.g. PORT=${other} ${command}) or stop that process`;
  }
  if (err.code === 'EACCES')
    return `port ${port} needs privileges this user does not have; set PORT to 1024 or above (e.g. PORT=3000 ${command})`;
  if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN')
    return `HOST ${host} is not an address of this machine; set HOST (127.0.0.1 for this machine only, 0.0.0.0 for every interface)`;
  return null;
}

/**
 * Tries to listen on host:port and lets go at once. Resolves null when the port is free, else the
 * message of listenProblem (or the error's own message).
 * @param {string} host
 * @param {number} port
 * @param {string} [command]
 * @returns {Promise<string | null>}
 */
export function checkPort(host, port, command) {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', (err) => resolve(listenProblem(err, host, port, command) ?? `cannot listen on ${host}:${port}: ${err.message}`));
    srv.listen({ host, port, exclusive: true }, () => srv.close(() => resolve(null)));
  });
}

/** How the product was started, for messages: `npm run demo`, else `npm start`. */
export function startCommand() {
  return process.env.npm_lifecycle_event === 'demo' ? 'npm run demo' : 'npm start';
}
