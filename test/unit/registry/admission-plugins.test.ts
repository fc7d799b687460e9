import { describe, expect, it } from 'vitest';
import { disabledAdmissionPlugins } from '../../../src/registry/admission-plugins.js';

describe('--enable-admission-plugins / --disable-admission-plugins', () => {
  it('turns off what --disable-admission-plugins names, from repeated and comma-separated values', () => {
    expect(disabledAdmissionPlugins([], ['ServiceAccount,Priority', 'RuntimeClass'])).toEqual(['ServiceAccount', 'Priority', 'RuntimeClass']);
    expect(disabledAdmissionPlugins(['NodeRestriction'], [])).toEqual([]);
  });

  it("refuses a name kube does not know, with kube's message", () => {
    expect(() => disabledAdmissionPlugins([], ['ServiceAcount'])).toThrow('disable-admission-plugins plugin "ServiceAcount" is unknown');
    expect(() => disabledAdmissionPlugins(['Bogus'], [])).toThrow('enable-admission-plugins plugin "Bogus" is unknown');
  });
});
