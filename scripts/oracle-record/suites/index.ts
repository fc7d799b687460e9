// The suites the recorder knows, by name (the folder under test/fixtures/oracle/).

import type { Suite } from '../format.js';
import { ssaClasses } from './ssa-classes.js';
import { ssaRandom } from './ssa-random.js';
import { conformClasses } from './conform-classes.js';
import { conformCorpus } from './conform-corpus.js';
import { rbac } from './rbac.js';
import { saTokenVolume } from './sa-token-volume.js';
import { conformTypes } from './conform-types.js';
import { conformWording } from './conform-wording.js';

export const SUITES: Record<string, Suite> = {
  [ssaClasses.name]: ssaClasses,
  [ssaRandom.name]: ssaRandom,
  [conformClasses.name]: conformClasses,
  [conformCorpus.name]: conformCorpus,
  [rbac.name]: rbac,
  [saTokenVolume.name]: saTokenVolume,
  [conformTypes.name]: conformTypes,
  [conformWording.name]: conformWording,
};
