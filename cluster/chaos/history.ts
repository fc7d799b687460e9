// What the chaos harness records: every operation a client called (arguments, call and
// return times, what came back), every watch event a watcher received, and every fault
// injected. The checks (check.ts) read only this, so a saved history can be checked again.

/** How a read chose its resourceVersion. */
export type RvMode = 'consistent' | 'any' | 'notOlderThan' | 'exact';

export interface Item {
  name: string;
  value: string;
  rv: number;
}

export interface Operation {
  id: number;
  /** The client (one sequential session) that called it. */
  client: number;
  kind: 'create' | 'update' | 'delete' | 'get' | 'list';
  /** The object's name (create, update, delete, get). */
  key?: string;
  /** The value written (spec.holderIdentity), unique in the run. */
  value?: string;
  /** The resourceVersion precondition of an update or delete. */
  precondition?: number;
  /** Reads: which resourceVersion rule, and the resourceVersion sent (notOlderThan, exact). */
  mode?: RvMode;
  rv?: number;
  /** Paged lists: the page size. */
  limit?: number;
  /** Nanoseconds (the harness's monotonic clock). */
  call: number;
  /** Undefined: no answer came (timeout, reset, refused): the outcome is unknown. */
  ret?: number;
  /** Paged lists: when the first page came back (the list's snapshot was taken by then). */
  firstRet?: number;
  /** The HTTP status (of the last page for a paged list); undefined when no answer came. */
  status?: number;
  /** Why there was no answer, or the Status reason of an error. */
  error?: string;
  /** The object answered (writes and gets). */
  outRv?: number;
  outValue?: string;
  /** Lists: the list's resourceVersion (the first page's), the items of all pages, the pages. */
  listRv?: number;
  items?: Item[];
  pages?: number;
  /** The connection that answered (the first page's, for a paged list). */
  conn?: number;
  /** A continued page was asked on a new connection (often another node). */
  continuedElsewhere?: boolean;
}

export interface WatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  /** namespace/name */
  key: string;
  value: string;
  rv: number;
  /** Milliseconds into the run when it arrived. */
  at: number;
  conn: number;
}

/** One stretch of a watcher's stream that must be gap-free: from a list's (or its start's) revision on. */
export interface WatchSegment {
  /** Events after this revision belong to the segment. */
  from: number;
  /** How it began: the initial list, or a relist after 410 Gone. */
  cause: 'start' | 'relist-after-410';
  events: WatchEvent[];
  /** Bookmarks: every event up to their revision was sent before them. */
  bookmarks: { rv: number; afterEvents: number }[];
  /** Each (re)connection: the revision it resumed from, and how the previous stream ended. */
  connects: { from: number; at: number; conn: number; previousEnd?: string }[];
  /** Revisions covered: events (and bookmarks) up to here were delivered. */
  reached: number;
}

export interface WatcherHistory {
  id: number;
  /** A namespace, or '' for every namespace (the nodes' own kube-system leases included). */
  namespace: string;
  segments: WatchSegment[];
  /** Error events and failed (re)connections, for the report. */
  errors: string[];
}

export interface FaultRecord {
  kind: string;
  target: string;
  /** Milliseconds into the run. */
  start: number;
  healed: number;
  steps: { at: number; what: string }[];
}

/** One change in etcd's log for the leases prefix (the ground truth the checks compare with). */
export interface LogEvent {
  rv: number;
  /** namespace/name */
  key: string;
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  /** spec.holderIdentity of the stored object ('' for a delete). */
  value: string;
}

export interface RunHistory {
  run: number;
  namespace: string;
  keys: string[];
  fault: FaultRecord;
  /** Revision before the run's first write, and the one every check reads up to. */
  startRev: number;
  endRev: number;
  ops: Operation[];
  watchers: WatcherHistory[];
  /** etcd's log of every lease change in (startRev, endRev]. */
  log: LogEvent[];
  /** The consistent lists of the run's namespace read from every node (and the balancer) after the fault healed. */
  finalReads: { via: string; op: Operation }[];
}
