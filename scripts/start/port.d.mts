/** Types of port.mjs (plain JavaScript: the web server loads it without tsx). */
export function portHolder(port: number): { pid: number; command: string } | null;
export function listenProblem(err: NodeJS.ErrnoException, host: string, port: number, command?: string): string | null;
export function checkPort(host: string, port: number, command?: string): Promise<string | null>;
export function startCommand(): string;
