// Most kube strategies for simple types differ only in what they validate: nothing to default,
// nothing server-owned to clear on create or carry over on update. They name what differs.

import type { Strategy } from './types.js';

/** A strategy with no rules beyond `rules`: PUT does not create, updates need no resourceVersion, no generation. */
export function plainStrategy(rules: Partial<Strategy> = {}): Strategy {
  return {
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
    tracksGeneration: false,
    applyDefaults: () => undefined,
    prepareForCreate: () => undefined,
    prepareForUpdate: () => undefined,
    validate: () => [],
    validateUpdate: () => [],
    ...rules,
  };
}
