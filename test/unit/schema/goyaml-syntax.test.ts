// goyaml.v2's syntax errors, as kube-apiserver words them for YAML bodies (the expectations were
// produced by sigs.k8s.io/yaml v1.4.0's YAMLToJSON, the conversion kube-apiserver 1.33 runs).

import { describe, expect, it } from 'vitest';
import { goyamlSyntaxError } from '../../../src/schema/goyaml-syntax.js';

const CASES: [string, string | undefined][] = [
  ["a: b: c\n", "yaml: mapping values are not allowed in this context"],
  ["apiVersion: v1\nkind: X\nmetadata:\n\tname: x\n", "yaml: line 4: found character that cannot start any token"],
  ["\ta: 1\n", "yaml: found character that cannot start any token"],
  ["a: \"x\nb: 1\n", "yaml: line 3: found unexpected end of stream"],
  ["a: 'x\n", "yaml: line 2: found unexpected end of stream"],
  ["a: \"x\n---\n\"\n", "yaml: line 2: found unexpected document indicator"],
  ["abc\ndef: 1\n", "yaml: line 2: mapping values are not allowed in this context"],
  ["{a: 1, b: [\n", "yaml: line 1: did not find expected node content"],
  ["a:\n  b: [1, 2\n", "yaml: line 2: did not find expected ',' or ']'"],
  ["a:\n  b: {c: 1\n", "yaml: line 2: did not find expected ',' or '}'"],
  ["a: [x, y}\n", "yaml: did not find expected ',' or ']'"],
  ["a: {x: 1]\n", "yaml: did not find expected ',' or '}'"],
  ["a: ]\n", "yaml: did not find expected node content"],
  ["a: [x, - y]\n", "yaml: did not find expected node content"],
  ["a:\n  b: 1\n c: 2\n", "yaml: line 2: did not find expected key"],
  ["a:\n  - x\n - y\n", "yaml: line 2: did not find expected key"],
  ["a: 1\n- b\n", "yaml: line 1: did not find expected key"],
  ["a: 1\nb\nc: 2\n", "yaml: line 3: could not find expected ':'"],
  ["a: 1\nb\n", "yaml: line 3: could not find expected ':'"],
  ["a: @x\n", "yaml: found character that cannot start any token"],
  ["a: `x\n", "yaml: found character that cannot start any token"],
  ["a: %x\n", "yaml: found character that cannot start any token"],
  ["a: \"\\q\"\n", "yaml: found unknown escape character"],
  ["a: \"\\x4\"\n", "yaml: did not find expected hexdecimal number"],
  ["a: \"\\uD800\"\n", "yaml: found invalid Unicode character escape code"],
  ["a: |\n  x\n y\n", "yaml: line 2: did not find expected key"],
  ["a: |x\n  x\n", "yaml: did not find expected comment or line break"],
  ["a: |0\n  x\n", "yaml: found an indentation indicator equal to 0"],
  ["a: |\n\tx\n", "yaml: line 2: found a tab character where an indentation space is expected"],
  ["a: &\n", "yaml: did not find expected alphabetic or numeric character"],
  ["a: *\n", "yaml: did not find expected alphabetic or numeric character"],
  ["%FOO bar\na: 1\n", "yaml: found unknown directive name"],
  ["%YAML 1.1\n%YAML 1.1\n---\na: 1\n", "yaml: line 1: found duplicate %YAML directive"],
  ["%YAML 1.2\n---\na: 1\n", "yaml: found incompatible YAML document"],
  ["%YAML 1.1\na: 1\n", "yaml: line 1: did not find expected <document start>"],
  ["%TAG !a! tag:x,2000:\n%TAG !a! tag:y,2000:\n---\na: 1\n", "yaml: line 1: found duplicate %TAG directive"],
  ["a: !foo!bar 1\n", "yaml: found undefined tag handle"],
  ["a: !! 1\n", "yaml: did not find expected tag URI"],
  ["a: !<x 1\n", "yaml: did not find the expected '>'"],
  ["a: *foo\n", "yaml: unknown anchor 'foo' referenced"],
  ["a: &a [1, *a]\n", undefined],
  ["a: &a 1\nb: *a\n", undefined],
  ["? a\n? b\n: c\n", undefined],
  ["a: 1\n---\nb: c: d\n", undefined],
  ["---\na: 1\n...\n", undefined],
  ["", undefined],
  ["# only a comment\n", undefined],
  ["- a\n- b: c\n  d: e\n", undefined],
  ["a:\n- b\n- c\nd: e\n", undefined],
  ["a: x\n  y: z\n", "yaml: line 2: mapping values are not allowed in this context"],
  ["\"a\": 1\n\"b\" c\n", "yaml: line 3: could not find expected ':'"],
  ["a: [b, c]: d\n", "yaml: mapping values are not allowed in this context"],
  ["key: value\n  - item\n", undefined],
  ["a:\n  b:\n    c: [1, {d: e}, \"f\"]\n  g: |\n    text\n", undefined],
  ["a: \"x\" y\n", "yaml: did not find expected key"],
  ["a: 'x' y\n", "yaml: did not find expected key"],
  ["a: {b: c} d\n", "yaml: did not find expected key"],
  ["a\t: b\n", undefined],
  ["a: b\t# c\n", undefined],
  ["a: b\n\t# c\n", "yaml: line 2: found a tab character that violates indentation"],
  ['x'.repeat(1100) + ': 1\n', "yaml: mapping values are not allowed in this context"],
  ["a: >\n  folded\n text\n", "yaml: line 2: did not find expected key"],
  ["a: b\r\nc: d: e\r\n", "yaml: line 2: mapping values are not allowed in this context"],
];

describe('goyamlSyntaxError', () => {
  it.each(CASES)('%j', (text, want) => {
    expect(goyamlSyntaxError(text)).toBe(want);
  });

  it('finds an alias inside the node it names, for the decoder to refuse', () => {
    const found: { selfAlias?: string } = {};
    expect(goyamlSyntaxError('a: &a [1, *a]\n', undefined, found)).toBeUndefined();
    expect(found.selfAlias).toBe('a');
  });

  it('refuses flow collections nested beyond 10,000 as goyaml.v2 does', () => {
    expect(goyamlSyntaxError('['.repeat(10_001))).toBe('yaml: exceeded max depth of 10000');
    expect(goyamlSyntaxError('a: ' + '['.repeat(10_001))).toBe('yaml: exceeded max depth of 10000');
    // A required simple key goes stale after 1024 characters, before the depth is reached.
    expect(goyamlSyntaxError('a:\n' + '['.repeat(10_001))).toBe("yaml: line 2: could not find expected ':'");
  });
});
