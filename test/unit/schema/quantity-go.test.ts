// Go's %#v of a resource.Quantity as ParseQuantity leaves it (and after RoundUp(Milli)), checked
// against kube-apiserver 1.33's messages (scripts/oracle-record/suites/conform-wording.ts).

import { describe, expect, it } from 'vitest';
import { quantityGoSharpV } from '../../../src/schema/quantity.js';

const q = (value: string | number, scale: number, s: string, format: string, dec = false): string =>
  `resource.Quantity{i:resource.int64Amount{value:${value}, scale:${scale}}, d:resource.infDecAmount{Dec:${dec ? '(*inf.Dec)(0xc000a1b2c0)' : '(*inf.Dec)(nil)'}}, s:${JSON.stringify(s)}, Format:${JSON.stringify(format)}}`;

describe('quantityGoSharpV', () => {
  it.each<[unknown, string]>([
    ['1.5', q(15, -1, '', 'DecimalSI')],
    ['1500m', q(1500, -3, '1500m', 'DecimalSI')],
    ['1.50', q(150, -2, '', 'DecimalSI')],
    [1.5, q(15, -1, '', 'DecimalSI')],
    ['15e-1', q(15, -1, '', 'DecimalExponent')],
    ['1', q(1, 0, '1', 'DecimalSI')],
    ['0', q(0, 0, '0', 'DecimalSI')],
    ['1G', q(1, 9, '1G', 'DecimalSI')],
    ['2Gi', q(2147483648, 0, '2Gi', 'BinarySI')],
    ['1000Mi', q(1048576000, 0, '', 'BinarySI')],
    ['0.5Gi', q(0, 0, '', 'BinarySI', true)],
  ])('%j as parsed', (text, want) => {
    expect(quantityGoSharpV(text)).toBe(want);
  });

  it.each<[unknown, string]>([
    ['1.5555', q(1556, -3, '', 'DecimalSI')],
    ['0.0001', q(1, -3, '', 'DecimalSI')],
    ['-0.0001', q(-1, -3, '', 'DecimalSI')],
    ['1.5', q(15, -1, '', 'DecimalSI')],
    ['100m', q(100, -3, '100m', 'DecimalSI')],
    ['1.23456789012345678901', q(0, 0, '', 'DecimalSI', true)],
  ])('%j rounded up to milli', (text, want) => {
    expect(quantityGoSharpV(text, { roundUpMilli: true })).toBe(want);
  });

  it('has nothing to print for what does not parse', () => {
    expect(quantityGoSharpV('abc')).toBeUndefined();
    expect(quantityGoSharpV(null)).toBeUndefined();
  });
});
