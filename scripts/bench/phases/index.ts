// Phase registry, in run order. Standalone phases run first (ready first, so that
// nothing else has warmed or loaded the machine/etcd; then any long-lived
// server), then the shared-server phases run in this order against one fresh baseline,
// then one fresh kapi (phases with `targets` skip the other server), then each
// `freshServer` phase gets a newly started server of its own per target.
// Select a subset with BENCH_PHASES=id1,id2.
import { applyPhase } from './apply.js';
import { createGetPhase } from './create-get.js';
import { listPagedPhase } from './list-paged.js';
import { listPhase } from './list.js';
import { overloadPhase } from './overload.js';
import { protobufPhase } from './protobuf.js';
import { rawStoragePhase } from './raw-storage.js';
import { readyPhase } from './ready.js';
import { rssPhase } from './rss.js';
import { watchLatencyPhase } from './watch-latency.js';
import type { AnyPhase } from './types.js';

// list-paged before watch-latency: the watch phase's PriorityClasses would otherwise be in
// the paged list (the watches start from a list's resourceVersion, so earlier objects don't matter to them).
export const PHASES: AnyPhase[] = [readyPhase, rawStoragePhase, overloadPhase, createGetPhase, applyPhase, listPhase, protobufPhase, listPagedPhase, watchLatencyPhase, rssPhase];

/** Order of rows in the report (by phase id); phases not listed go last. */
export const REPORT_ORDER = ['ready', 'create-get', 'apply', 'list', 'protobuf', 'list-paged', 'watch-latency', 'rss', 'overload', 'raw-storage'];
