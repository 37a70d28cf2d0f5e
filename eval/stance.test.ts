import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPairs, scoreStance, type Judged } from './stance';

const pair = (id: string, label: 'SUPPORTS' | 'REFUTES' | 'NOT_ENOUGH_INFO', set?: string) => ({
  id,
  claim: `claim ${id}`,
  evidence: 'e',
  label,
  ...(set ? { set } : {}),
});

describe('quin eval stance', () => {
  it('scores each set over the labels it uses: "neither" on a supports/refutes set counts as wrong', () => {
    const judged: Judged[] = [
      { pair: pair('1', 'SUPPORTS', 'sym'), predicted: 'SUPPORTS', confidence: 0.9 },
      { pair: pair('2', 'REFUTES', 'sym'), predicted: 'NOT_ENOUGH_INFO', confidence: 0.6 },
      { pair: pair('3', 'REFUTES', 'sym'), predicted: 'REFUTES', confidence: 0.8 },
      { pair: pair('4', 'NOT_ENOUGH_INFO', 'three'), predicted: 'NOT_ENOUGH_INFO', confidence: 0.7 },
      { pair: pair('5', 'SUPPORTS', 'three'), predicted: 'REFUTES', confidence: 0.7 },
    ];
    const sets = scoreStance(judged);
    expect(Object.keys(sets)).toEqual(['sym', 'three']);
    expect(sets.sym).toMatchObject({ n: 3, accuracy: 0.6667, labels: ['SUPPORTS', 'REFUTES'] });
    // F1(SUPPORTS) = 1, F1(REFUTES) = 2·1/(2·1 + 0 + 1) = 0.6667.
    expect(sets.sym!.macro_f1).toBeCloseTo(0.8333, 4);
    expect(sets.sym!.confusion.REFUTES).toEqual({ SUPPORTS: 0, REFUTES: 1, NOT_ENOUGH_INFO: 1 });
    expect(sets.sym!.per_label.REFUTES).toMatchObject({ precision: 1, recall: 0.5 });
    expect(sets.three).toMatchObject({ n: 2, accuracy: 0.5 });
  });

  it('pairs without a set are one set "all"', () => {
    expect(Object.keys(scoreStance([{ pair: pair('1', 'SUPPORTS'), predicted: 'SUPPORTS', confidence: 1 }]))).toEqual(['all']);
  });

  it('a bad line is refused with its line number and field', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stance-'));
    const file = path.join(dir, 'p.jsonl');
    fs.writeFileSync(file, `${JSON.stringify(pair('1', 'SUPPORTS'))}\n${JSON.stringify({ ...pair('2', 'SUPPORTS'), label: 'AGREE' })}\n`);
    expect(() => readPairs(file)).toThrow(/p\.jsonl:2: label/);
    fs.writeFileSync(file, '{"id": 1, "claim": "c", "evidence": "e", "label": "REFUTES"}\nnot json\n');
    expect(() => readPairs(file)).toThrow(/p\.jsonl:2: not JSON/);
    fs.writeFileSync(file, '{"id": 1, "claim": "c", "evidence": "e", "label": "REFUTES", "set": "x"}\n');
    expect(readPairs(file)).toEqual([{ id: '1', claim: 'c', evidence: 'e', label: 'REFUTES', set: 'x' }]);
    expect(() => readPairs(path.join(dir, 'missing.jsonl'))).toThrow(/no such file/);
  });
});
