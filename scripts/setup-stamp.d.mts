export const STAMP_FILE: string;
export function setupInputsHash(root: string): string;
export function setupIsCurrent(root: string): boolean;
