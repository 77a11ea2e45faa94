import { describe, expect, it } from 'vitest';
import { Gate } from '../../src/client/gate.js';

describe('Gate.closedMs', () => {
  it('adds up separate spells, counts an overlap once, and stops at an ended outage', () => {
    const gate = new Gate(() => 0); // no spread
    expect(gate.closedMs(5_000)).toBe(0);
    gate.hold(1_000, 'retry-after', 0);
    expect(gate.closedMs(400)).toBe(400); // still closed: closed up to now
    gate.hold(500, 'retry-after', 800); // extends to 1 300 while closed: one spell
    gate.hold(200, 'retry-after', 900); // shorter: changes nothing
    expect(gate.closedMs(2_000)).toBe(1_300);
    gate.hold(1_000, 'outage', 3_000); // a second spell…
    gate.endOutage(3_250); // …that the next answer ended early
    expect(gate.closedMs(10_000)).toBe(1_550);
  });
});
