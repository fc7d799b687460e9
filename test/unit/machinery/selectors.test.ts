import { describe, expect, it } from 'vitest';
import {
  SelectorParseError,
  escapeFieldValue,
  parseFieldSelector,
  parseLabelSelector,
  unsupportedFieldLabelMessage,
  validateFieldSelector,
} from '../../../src/machinery/selectors.js';
import { goQuote } from '../../../src/machinery/go-format.js';

const QNAME_NAME_PART =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const OPS = 'in, notin, =, ==, !=, gt, lt';

function labelError(s: string): string {
  try {
    parseLabelSelector(s);
  } catch (e) {
    expect(e).toBeInstanceOf(SelectorParseError);
    expect(e).toBeInstanceOf(Error);
    expect((e as SelectorParseError).code).toBe(400);
    expect((e as SelectorParseError).reason).toBe('BadRequest');
    return (e as Error).message;
  }
  throw new Error(`expected ${JSON.stringify(s)} to be rejected`);
}

function fieldError(s: string): string {
  try {
    parseFieldSelector(s);
  } catch (e) {
    expect(e).toBeInstanceOf(SelectorParseError);
    return (e as Error).message;
  }
  throw new Error(`expected ${JSON.stringify(s)} to be rejected`);
}

const matches = (sel: string, labels: Record<string, string> | undefined): boolean =>
  parseLabelSelector(sel).matches(labels);

describe('parseLabelSelector: operators', () => {
  it('parses every operator into requirements', () => {
    const cases: Array<[string, string, string, string[]]> = [
      ['x=a', 'x', '=', ['a']],
      ['x==a', 'x', '==', ['a']],
      ['x!=a', 'x', '!=', ['a']],
      ['x in (b,a)', 'x', 'in', ['a', 'b']],
      ['x notin (a)', 'x', 'notin', ['a']],
      ['x', 'x', 'exists', []],
      ['!x', 'x', '!', []],
      ['x>5', 'x', 'gt', ['5']],
      ['x<5', 'x', 'lt', ['5']],
    ];
    for (const [s, key, operator, values] of cases) {
      const sel = parseLabelSelector(s);
      expect(sel.empty).toBe(false);
      expect(sel.requirements).toEqual([{ key, operator, values }]);
    }
  });

  it('prints the canonical form (kube String())', () => {
    expect(parseLabelSelector('x=a,y=b,z=c').toString()).toBe('x=a,y=b,z=c');
    expect(parseLabelSelector('x!=a,y=b').toString()).toBe('x!=a,y=b');
    expect(parseLabelSelector('x= ,z= ').toString()).toBe('x=,z=');
    expect(parseLabelSelector('!x').toString()).toBe('!x');
    expect(parseLabelSelector('x>1,z<5').toString()).toBe('x>1,z<5');
    expect(parseLabelSelector('x==a').toString()).toBe('x==a');
    expect(parseLabelSelector('y notin (b,a),x in (c)').toString()).toBe('x in (c),y notin (a,b)');
    expect(parseLabelSelector('z in ()').toString()).toBe('z in ()');
  });

  it('sorts requirements by key (deterministic parse)', () => {
    expect(parseLabelSelector('x=a,a=x').toString()).toBe(parseLabelSelector('a=x,x=a').toString());
    expect(parseLabelSelector('x notin (abc,def),bar,z in (),w').requirements.map((r) => r.key)).toEqual([
      'bar',
      'w',
      'x',
      'z',
    ]);
  });

  it('handles value sets: empty values, duplicates, keywords as values', () => {
    expect(parseLabelSelector('x in (abc,)').requirements[0]!.values).toEqual(['', 'abc']);
    expect(parseLabelSelector('x in ()').requirements[0]!.values).toEqual(['']);
    expect(parseLabelSelector('x in (,a)').requirements[0]!.values).toEqual(['', 'a']);
    expect(parseLabelSelector('x in (a,,b)').requirements[0]!.values).toEqual(['', 'a', 'b']);
    expect(parseLabelSelector('x in (b,a,b)').requirements[0]!.values).toEqual(['a', 'b']);
    expect(parseLabelSelector('x in (in,notin)').requirements[0]!.values).toEqual(['in', 'notin']);
    expect(parseLabelSelector('notin=in').requirements).toEqual([{ key: 'notin', operator: '=', values: ['in'] }]);
    expect(parseLabelSelector('x=').requirements[0]!.values).toEqual(['']);
    expect(parseLabelSelector('x=,y').requirements.map((r) => r.operator)).toEqual(['=', 'exists']);
  });

  it('accepts prefixed keys', () => {
    expect(parseLabelSelector('this-is-a-dns.domain.com/key-with-dash').requirements[0]!.key).toBe(
      'this-is-a-dns.domain.com/key-with-dash',
    );
    expect(parseLabelSelector('0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)').requirements[0]).toEqual({
      key: '0.1.2.domain/99',
      operator: 'notin',
      values: ['10.10.100.1', 'tick.tack.clock'],
    });
  });
});

describe('parseLabelSelector: whitespace', () => {
  it('skips space, tab, CR and LF between tokens', () => {
    expect(parseLabelSelector('\rx').toString()).toBe('x');
    expect(parseLabelSelector('foo  in\t (abc)').toString()).toBe('foo in (abc)');
    expect(parseLabelSelector('x notin\n (abc)').toString()).toBe('x notin (abc)');
    expect(parseLabelSelector('x  notin\t\t\t(abc,def)').toString()).toBe('x notin (abc,def)');
    expect(parseLabelSelector(' a = b , c != d ').toString()).toBe('a=b,c!=d');
    expect(parseLabelSelector('x in ( a , b )').requirements[0]!.values).toEqual(['a', 'b']);
  });

  it('does not treat other whitespace as a separator', () => {
    expect(labelError('x=\va')).toBe(`unable to parse requirement: values[0][x]: Invalid value: "\\va": ${LABEL_VALUE}`);
  });
});

describe('parseLabelSelector: empty selector', () => {
  it('matches everything', () => {
    for (const s of ['', '   ', '\t\n']) {
      const sel = parseLabelSelector(s);
      expect(sel.empty).toBe(true);
      expect(sel.requirements).toEqual([]);
      expect(sel.toString()).toBe('');
      expect(sel.matches({ x: 'y' })).toBe(true);
      expect(sel.matches({})).toBe(true);
      expect(sel.matches(undefined)).toBe(true);
    }
  });
});

describe('parseLabelSelector: exact error messages', () => {
  it('reports invalid keys like kube (path <nil>)', () => {
    expect(labelError('app:web')).toBe(
      `unable to parse requirement: <nil>: Invalid value: "app:web": ${QNAME_NAME_PART}`,
    );
    expect(labelError('a/b/c ?=? def')).toBe(
      `unable to parse requirement: <nil>: Invalid value: "a/b/c": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    );
    expect(labelError('app.kubernetes_io/name=x')).toBe(
      `unable to parse requirement: <nil>: Invalid value: "app.kubernetes_io/name": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    );
    expect(labelError('/x')).toBe('unable to parse requirement: <nil>: Invalid value: "/x": prefix part must be non-empty');
    expect(labelError('p/')).toBe(
      `unable to parse requirement: <nil>: Invalid value: "p/": name part must be non-empty; ${QNAME_NAME_PART}`,
    );
    const long = 'a'.repeat(64);
    expect(labelError(long)).toBe(
      `unable to parse requirement: <nil>: Invalid value: "${long}": name part must be no more than 63 characters`,
    );
    expect(labelError('*bar')).toBe(`unable to parse requirement: <nil>: Invalid value: "*bar": ${QNAME_NAME_PART}`);
  });

  it('reports invalid values with the values[i][key] path', () => {
    expect(labelError('app=demo-{nginx}')).toBe(
      `unable to parse requirement: values[0][app]: Invalid value: "demo-{nginx}": ${LABEL_VALUE}`,
    );
    // index is into the sorted, de-duplicated value set
    expect(labelError('x in (b_,a)')).toBe(`unable to parse requirement: values[1][x]: Invalid value: "b_": ${LABEL_VALUE}`);
    const long = 'v'.repeat(64);
    expect(labelError(`x=${long}`)).toBe(
      `unable to parse requirement: values[0][x]: Invalid value: "${long}": must be no more than 63 characters`,
    );
    expect(labelError('x=a"b')).toBe(`unable to parse requirement: values[0][x]: Invalid value: "a\\"b": ${LABEL_VALUE}`);
  });

  it('reports gt/lt values that are not int64', () => {
    expect(labelError('environment>qa')).toBe(
      `unable to parse requirement: values[0]: Invalid value: "qa": for 'Gt', 'Lt' operators, the value must be an integer`,
    );
    expect(labelError('x<')).toBe(
      `unable to parse requirement: values[0]: Invalid value: "": for 'Gt', 'Lt' operators, the value must be an integer`,
    );
    expect(labelError('x>99999999999999999999')).toBe(
      `unable to parse requirement: values[0]: Invalid value: "99999999999999999999": for 'Gt', 'Lt' operators, the value must be an integer`,
    );
    // several errors are aggregated as [a, b]
    expect(labelError('x>a_')).toBe(
      `unable to parse requirement: [values[0]: Invalid value: "a_": for 'Gt', 'Lt' operators, the value must be an integer, values[0][x]: Invalid value: "a_": ${LABEL_VALUE}]`,
    );
  });

  it('reports grammar errors', () => {
    expect(labelError('x y')).toBe(`unable to parse requirement: found 'y', expected: ${OPS}`);
    expect(labelError('type=app,versionv1.0.1)')).toBe(`unable to parse requirement: found ')', expected: ${OPS}`);
    expect(labelError('env IN (a)')).toBe(`unable to parse requirement: found 'IN', expected: ${OPS}`);
    expect(labelError('e!!!!!ss')).toBe(`unable to parse requirement: found '!', expected: ${OPS}`);
    expect(labelError('x (')).toBe(`unable to parse requirement: found '(', expected: ${OPS}`);
    expect(labelError('x=a y')).toBe("found 'y', expected: ',' or 'end of string'");
    // the value "a||y" is validated (and rejected) before the trailing "=b" is looked at
    expect(labelError('x=a||y=b')).toBe(`unable to parse requirement: values[0][x]: Invalid value: "a||y": ${LABEL_VALUE}`);
    expect(labelError('x=a=b')).toBe("found '=', expected: ',' or 'end of string'");
    expect(labelError('x==a==b')).toBe("found '==', expected: ',' or 'end of string'");
    expect(labelError('!x=a')).toBe("found '=', expected: ',' or 'end of string'");
    expect(labelError(',x')).toBe("found ',', expected: !, identifier, or 'end of string'");
    expect(labelError('(')).toBe("found '(', expected: !, identifier, or 'end of string'");
    expect(labelError('x=a,')).toBe("found '', expected: identifier after ','");
    expect(labelError('x=a,,y')).toBe("found ',', expected: identifier after ','");
    expect(labelError('!')).toBe("unable to parse requirement: found '', expected: identifier");
    expect(labelError('!=x')).toBe("found '!=', expected: !, identifier, or 'end of string'");
    expect(labelError('! =x')).toBe("unable to parse requirement: found '=', expected: identifier");
    expect(labelError('x=)')).toBe("unable to parse requirement: found ')', expected: identifier");
    expect(labelError('x!==a')).toBe("unable to parse requirement: found '=', expected: identifier");
    expect(labelError('x>=5')).toBe("unable to parse requirement: found '=', expected: identifier");
    expect(labelError('x in a')).toBe("unable to parse requirement: found 'a' expected: '('");
    expect(labelError('x in')).toBe("unable to parse requirement: found '' expected: '('");
    expect(labelError('x in (')).toBe("unable to parse requirement: found '', expected: ',', ')' or identifier");
    expect(labelError('x in (=)')).toBe("unable to parse requirement: found '=', expected: ',', ')' or identifier");
    expect(labelError('x in (a')).toBe("unable to parse requirement: found '', expected: ',' or ')'");
    expect(labelError('x in (a b)')).toBe("unable to parse requirement: found 'b', expected: ',' or ')'");
    expect(labelError('x in (a,=)')).toBe("unable to parse requirement: found '=', expected: ',', or identifier");
    // 1.33 consumes the second comma of ",,": "(a,,)" and "(,,)" are errors there
    expect(labelError('x in (a,,)')).toBe("unable to parse requirement: found ')', expected: ',', or identifier");
    expect(labelError('x in (,,)')).toBe("unable to parse requirement: found ')', expected: ',', or identifier");
  });
});

describe('LabelSelector.matches', () => {
  it('follows kube semantics per operator', () => {
    expect(matches('x=y', { x: 'y' })).toBe(true);
    expect(matches('x==y', { x: 'y' })).toBe(true);
    expect(matches('x=y,z=w', { x: 'y', z: 'w' })).toBe(true);
    expect(matches('x!=y,z!=w', { x: 'z', z: 'a' })).toBe(true);
    expect(matches('notin=in', { notin: 'in' })).toBe(true);
    expect(matches('x', { x: 'z' })).toBe(true);
    expect(matches('!x', { y: 'z' })).toBe(true);
    expect(matches('x>1', { x: '2' })).toBe(true);
    expect(matches('x<1', { x: '0' })).toBe(true);
    expect(matches('x=z', {})).toBe(false);
    expect(matches('x=y', { x: 'z' })).toBe(false);
    expect(matches('x=y,z=w', { x: 'w', z: 'w' })).toBe(false);
    expect(matches('x!=y,z!=w', { x: 'z', z: 'w' })).toBe(false);
    expect(matches('x', { y: 'z' })).toBe(false);
    expect(matches('!x', { x: 'z' })).toBe(false);
    expect(matches('x>1', { x: '0' })).toBe(false);
    expect(matches('x<1', { x: '2' })).toBe(false);
    expect(matches('foo=bar,foobar=bar,baz=blah', { foo: 'bar', baz: 'blah' })).toBe(false);
  });

  it('!= and notin match objects lacking the label; in and = require it', () => {
    expect(matches('x!=a', {})).toBe(true);
    expect(matches('x!=a', undefined)).toBe(true);
    expect(matches('x notin (a,b)', { y: 'a' })).toBe(true);
    expect(matches('x notin (a,b)', undefined)).toBe(true);
    expect(matches('x notin (a,b)', { x: 'a' })).toBe(false);
    expect(matches('x notin (a,b)', { x: 'c' })).toBe(true);
    expect(matches('x in (a,b)', {})).toBe(false);
    expect(matches('x in (a,b)', undefined)).toBe(false);
    expect(matches('x in (a,b)', { x: 'b' })).toBe(true);
    expect(matches('x in ()', { x: '' })).toBe(true);
    expect(matches('x in ()', {})).toBe(false);
    expect(matches('x=', {})).toBe(false);
    expect(matches('x=', { x: '' })).toBe(true);
    expect(matches('!x', undefined)).toBe(true);
    expect(matches('x', undefined)).toBe(false);
    // matrix from kube's TestRequirementSelectorMatching
    expect(matches('x notin (),y', { y: '' })).toBe(true);
    expect(matches('!x,y', { y: '' })).toBe(true);
    expect(matches('x notin (),!y', { y: '' })).toBe(false);
    expect(matches('x in ()', { y: 'baz' })).toBe(false);
  });

  it('compares gt/lt as int64 and never matches non-integers', () => {
    expect(matches('x>2', { x: 'v2' })).toBe(false);
    expect(matches('x>2', {})).toBe(false);
    expect(matches('x>9', { x: '10' })).toBe(true); // numeric, not lexical
    expect(matches('x<10', { x: '9' })).toBe(true);
    expect(matches('x>5', { x: '5' })).toBe(false);
    expect(matches('x>9223372036854775806', { x: '9223372036854775807' })).toBe(true);
    expect(matches('x>1', { x: '9223372036854775808' })).toBe(false); // overflows int64
    expect(matches('x<0', { x: '-3' })).toBe(true);
  });

  it('does not see inherited properties as labels', () => {
    expect(matches('constructor', {})).toBe(false);
    expect(matches('toString!=x', {})).toBe(true);
  });

  it('requiresExactMatch mirrors kube', () => {
    const sel = parseLabelSelector('a=1,b in (2),c in (3,4),d!=5,e==6');
    expect(sel.requiresExactMatch('a')).toBe('1');
    expect(sel.requiresExactMatch('b')).toBe('2');
    expect(sel.requiresExactMatch('c')).toBeUndefined();
    expect(sel.requiresExactMatch('d')).toBeUndefined();
    expect(sel.requiresExactMatch('e')).toBe('6');
    expect(sel.requiresExactMatch('zz')).toBeUndefined();
  });
});

describe('parseFieldSelector', () => {
  it('parses =, == and != terms (== folds into =)', () => {
    const sel = parseFieldSelector('metadata.name=foo,spec.nodeName!=n1,status.phase==Running');
    expect(sel.empty).toBe(false);
    expect(sel.requirements).toEqual([
      { field: 'metadata.name', operator: '=', value: 'foo' },
      { field: 'spec.nodeName', operator: '!=', value: 'n1' },
      { field: 'status.phase', operator: '=', value: 'Running' },
    ]);
    expect(sel.exactMatch('metadata.name')).toBe('foo');
    expect(sel.exactMatch('spec.nodeName')).toBeUndefined();
    expect(sel.exactMatch('status.phase')).toBe('Running');
    expect(sel.toString()).toBe('metadata.name=foo,spec.nodeName!=n1,status.phase=Running');
  });

  it('orders terms by their raw text like kube', () => {
    const sel = parseFieldSelector('metadata.name=foo,metadata.name=bar');
    expect(sel.requirements.map((r) => r.value)).toEqual(['bar', 'foo']);
    expect(sel.exactMatch('metadata.name')).toBe('bar');
  });

  it('empty selectors match everything', () => {
    for (const s of ['', ',', ',,,']) {
      const sel = parseFieldSelector(s);
      expect(sel.empty).toBe(true);
      expect(sel.matches({ a: 'b' })).toBe(true);
      expect(sel.exactMatch('metadata.name')).toBeUndefined();
    }
  });

  it('keeps whitespace and empty sides literally', () => {
    expect(parseFieldSelector(' a = b ').requirements).toEqual([{ field: ' a ', operator: '=', value: ' b ' }]);
    expect(parseFieldSelector('=x').requirements).toEqual([{ field: '', operator: '=', value: 'x' }]);
    expect(parseFieldSelector('a=').requirements).toEqual([{ field: 'a', operator: '=', value: '' }]);
    expect(parseFieldSelector('a!=').requirements).toEqual([{ field: 'a', operator: '!=', value: '' }]);
  });

  it('unescapes \\\\, \\, and \\= in values', () => {
    expect(parseFieldSelector('a=x\\,y').requirements[0]!.value).toBe('x,y');
    expect(parseFieldSelector('a=x\\=y').requirements[0]!.value).toBe('x=y');
    expect(parseFieldSelector('a=x\\\\y').requirements[0]!.value).toBe('x\\y');
    expect(parseFieldSelector('a=x\\,y,b=z').requirements).toEqual([
      { field: 'a', operator: '=', value: 'x,y' },
      { field: 'b', operator: '=', value: 'z' },
    ]);
    expect(parseFieldSelector('a!=1\\=2').requirements[0]).toEqual({ field: 'a', operator: '!=', value: '1=2' });
  });

  it('escapeFieldValue round-trips through the parser', () => {
    for (const v of ['plain', 'a,b', 'a=b', 'a\\b', '\\,=\\\\', '', 'ünï,cødé']) {
      const esc = escapeFieldValue(v);
      expect(parseFieldSelector(`f=${esc}`).requirements[0]!.value).toBe(v);
    }
    expect(escapeFieldValue('a\\b,c=d')).toBe('a\\\\b\\,c\\=d');
    expect(escapeFieldValue('a!b')).toBe('a!b');
  });

  it('reports errors with kube messages', () => {
    expect(fieldError('foo')).toBe("invalid selector: 'foo'; can't understand 'foo'");
    expect(fieldError('a=b,foo')).toBe("invalid selector: 'a=b,foo'; can't understand 'foo'");
    // terms are sorted before being checked: the lexically smallest bad term is reported
    expect(fieldError('b=1,a,z')).toBe("invalid selector: 'b=1,a,z'; can't understand 'a'");
    expect(fieldError('a!b')).toBe("invalid selector: 'a!b'; can't understand 'a!b'");
    expect(fieldError('a=b=c')).toBe('invalid field selector: unescaped character in value: 61');
    expect(fieldError('a===b')).toBe('invalid field selector: unescaped character in value: 61');
    expect(fieldError('a\\=b=c')).toBe('invalid field selector: unescaped character in value: 61');
    expect(fieldError('a=b\\')).toBe('invalid field selector: invalid escape sequence: \\');
    expect(fieldError('a=\\x')).toBe('invalid field selector: invalid escape sequence: \\x');
    // only \\ \, \= are escapes upstream; \! is rejected
    expect(fieldError('a=\\!')).toBe('invalid field selector: invalid escape sequence: \\!');
  });

  it('matches with missing fields reading as ""', () => {
    const sel = parseFieldSelector('metadata.name=foo,status.phase!=Failed');
    expect(sel.matches({ 'metadata.name': 'foo', 'status.phase': 'Running' })).toBe(true);
    expect(sel.matches({ 'metadata.name': 'foo' })).toBe(true);
    expect(sel.matches({ 'metadata.name': 'foo', 'status.phase': 'Failed' })).toBe(false);
    expect(sel.matches({ 'metadata.name': 'bar' })).toBe(false);
    expect(parseFieldSelector('spec.nodeName=').matches({})).toBe(true);
    expect(parseFieldSelector('spec.nodeName!=').matches({})).toBe(false);
    expect(parseFieldSelector('spec.nodeName!=').matches({ 'spec.nodeName': 'n' })).toBe(true);
  });
});

describe('validateFieldSelector', () => {
  const statefulSet = { group: 'apps', version: 'v1', kind: 'StatefulSet' };
  const pod = { group: '', version: 'v1', kind: 'Pod' };
  const meta = ['metadata.name', 'metadata.namespace'];

  function validationError(sel: string, supported: string[], kind: typeof pod, crd = false): string {
    try {
      validateFieldSelector(parseFieldSelector(sel), supported, kind, { customResource: crd });
    } catch (e) {
      expect(e).toBeInstanceOf(SelectorParseError);
      return (e as Error).message;
    }
    throw new Error('expected rejection');
  }

  it('accepts supported labels and returns the selector', () => {
    const sel = parseFieldSelector('metadata.name=a,metadata.namespace=b');
    expect(validateFieldSelector(sel, meta, statefulSet)).toBe(sel);
    expect(validateFieldSelector(parseFieldSelector(''), [], statefulSet).empty).toBe(true);
  });

  it('uses the generic text for kinds without their own conversion', () => {
    expect(validationError('spec.foo=bar', meta, statefulSet)).toBe(
      '"spec.foo" is not a known field selector: only "metadata.name", "metadata.namespace"',
    );
    expect(validationError('status.replicas=1', meta, { group: 'apps', version: 'v1', kind: 'ReplicaSet' })).toBe(
      '"status.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"',
    );
    expect(validationError('=x', meta, { group: '', version: 'v1', kind: 'ConfigMap' })).toBe(
      '"" is not a known field selector: only "metadata.name", "metadata.namespace"',
    );
  });

  it('uses per-kind texts where kube registers a conversion', () => {
    const podFields = ['metadata.name', 'metadata.namespace', 'spec.nodeName', 'status.phase'];
    expect(validationError('spec.foo=bar', podFields, pod)).toBe('field label not supported: spec.foo');
    expect(validationError('x=1', ['metadata.name'], { group: '', version: 'v1', kind: 'Node' })).toBe(
      'field label not supported: x',
    );
    expect(validationError('status.succeeded=1', meta, { group: 'batch', version: 'v1', kind: 'Job' })).toBe(
      'field label "status.succeeded" not supported for batchv1.Job',
    );
    expect(
      validationError('spec.foo=1', ['metadata.name'], { group: 'resource.k8s.io', version: 'v1beta1', kind: 'ResourceSlice' }),
    ).toBe('field label not supported for resource.k8s.io/v1beta1, Kind=ResourceSlice: spec.foo');
    expect(validationError('spec.foo=1', meta, { group: 'example.com', version: 'v1', kind: 'Widget' }, true)).toBe(
      'field label not supported: spec.foo',
    );
    expect(validationError('metadata.namespace=a', ['metadata.name'], { group: 'example.com', version: 'v1', kind: 'Cluster' }, true)).toBe(
      'field label not supported: metadata.namespace',
    );
  });

  it('reports the first unsupported term in sorted order', () => {
    expect(validationError('z.b=1,a.b=1,metadata.name=x', meta, pod)).toBe('field label not supported: a.b');
  });

  it('rewrites aliases', () => {
    const out = validateFieldSelector(parseFieldSelector('spec.host=n1,metadata.name=p'), ['metadata.name', 'spec.nodeName'], pod, {
      aliases: { 'spec.host': 'spec.nodeName' },
    });
    expect(out.requirements).toEqual([
      { field: 'metadata.name', operator: '=', value: 'p' },
      { field: 'spec.nodeName', operator: '=', value: 'n1' },
    ]);
    expect(out.exactMatch('spec.nodeName')).toBe('n1');
  });

  it('exposes the message builder', () => {
    expect(unsupportedFieldLabelMessage('a"b', statefulSet)).toBe(
      '"a\\"b" is not a known field selector: only "metadata.name", "metadata.namespace"',
    );
  });
});

describe('goQuote', () => {
  it('quotes like Go %q', () => {
    expect(goQuote('abc')).toBe('"abc"');
    expect(goQuote('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(goQuote('\n\t\x01\x7f')).toBe('"\\n\\t\\x01\\x7f"');
    expect(goQuote('é ü')).toBe('"é ü"');
    expect(goQuote('\u00a0\u200b')).toBe('"\\u00a0\\u200b"');
  });
});
