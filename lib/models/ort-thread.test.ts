/**
 * The model runs off the event loop: while our reranker scores a batch of long passages (several
 * hundred milliseconds of inference on two cores), the process's timers keep firing — a health check
 * or a refusal is answered meanwhile, instead of waiting behind the batch (it waited up to 2.4 s).
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../paths';
import { loopGaps } from '../../testing/event-loop';
import { CrossEncoder } from './cross-encoder';

const opened: CrossEncoder[] = [];
afterAll(async () => {
  for (const m of opened) await m.close();
});

describe('inference in the model thread', () => {
  it('keeps the event loop free while a batch runs, and gives the same scores every time', async () => {
    const model = await CrossEncoder.load(path.join(projectRoot(), 'models', 'quin-reranker'), { batchSize: 32 });
    opened.push(model);
    const passage = (i: number) =>
      `Report ${i}: the harbour bridge will close for repairs next month, the council said, after engineers found corrosion in the deck during an inspection; drivers will be diverted along the coast road for six weeks while the work goes on.`;
    const passages = Array.from({ length: 32 }, (_, i) => passage(i));
    const first = await model.score('the harbour bridge closes for repairs', passages);
    const { result: again, ranMs, longestGapMs } = await loopGaps(() => model.score('the harbour bridge closes for repairs', passages), 5);
    expect(again).toEqual(first);
    // The batch took a while; the loop never stopped for more than a fraction of it.
    expect(longestGapMs, `inference ${Math.round(ranMs)} ms, longest timer gap ${Math.round(longestGapMs)} ms`).toBeLessThan(
      Math.max(100, ranMs / 4),
    );
  });

  it("leaves the CPU to the rest of the process between batches (onnxruntime's threads do not spin)", async () => {
    const model = await CrossEncoder.load(path.join(projectRoot(), 'models', 'quin-reranker'), { batchSize: 32 });
    opened.push(model);
    const passages = Array.from({ length: 16 }, (_, i) => `Passage ${i} about the council's plan to repair the harbour bridge next month.`);
    await model.score('the harbour bridge closes', passages);
    let after = 0;
    for (let i = 0; i < 3; i++) {
      await model.score('the harbour bridge closes', passages);
      const before = process.cpuUsage();
      await new Promise((resolve) => setTimeout(resolve, 100));
      const used = process.cpuUsage(before);
      after += (used.user + used.system) / 1000;
    }
    // Spinning, the pool's threads burned ~35 ms of CPU in the 100 ms after each batch.
    expect(after / 3).toBeLessThan(12);
  });
});
