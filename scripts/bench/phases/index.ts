// Phase registry, in run order. Standalone phases run first (ready first, so that
// nothing else has warmed or loaded the machine/etcd; then any long-lived
// server), then every server phase runs against a fresh baseline, then a fresh kapi.
// Select a subset with BENCH_PHASES=id1,id2.
import { createGetPhase } from './create-get.js';
import { listPhase } from './list.js';
import { rawStoragePhase } from './raw-storage.js';
import { readyPhase } from './ready.js';
import type { AnyPhase } from './types.js';

export const PHASES: AnyPhase[] = [readyPhase, rawStoragePhase, createGetPhase, listPhase];

/** Order of rows in the report (by phase id); phases not listed go last. */
export const REPORT_ORDER = ['ready', 'create-get', 'list', 'raw-storage'];
