import { describe, expect, it } from 'vitest';
import { Gate } from './gate.ts';

describe('Gate', () => {
  it('runs a task at once when idle, and queues tasks behind one in flight', async () => {
    const gate = new Gate();
    const order: string[] = [];
    let release!: () => void;
    const first = gate.run(async () => {
      order.push('first:start');
      await new Promise<void>((resolve) => (release = resolve));
      order.push('first:end');
    });
    expect(order).toEqual(['first:start']);
    const second = gate.run(() => {
      order.push('second');
    });
    await Promise.resolve();
    expect(order).toEqual(['first:start']);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first:start', 'first:end', 'second']);
    gate.run(() => order.push('idle again'));
    expect(order.at(-1)).toBe('idle again');
  });

  it('keeps going after a task throws or rejects', async () => {
    const gate = new Gate();
    await expect(
      gate.run(() => {
        throw new Error('sync');
      }),
    ).rejects.toThrow('sync');
    await expect(gate.run(() => Promise.reject(new Error('async')))).rejects.toThrow('async');
    await expect(gate.run(() => 7)).resolves.toBe(7);
  });
});
