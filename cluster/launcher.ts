// Runs a replicated kapi cluster on this machine: the etcd members, the kapi nodes and
// haproxy of cluster/plan.ts, each a child process with its own log under <dir>/logs.
// `kapi cluster` is this module behind a command line; tests and the chaos harness use it
// directly to kill (-9), pause (SIGSTOP), resume and restart any node or member.
//
// The layout (ports) is saved in <dir>/cluster.json on the first start, so a second start
// on the same directory resumes the same cluster with its data.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, openSync, closeSync, readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { freePort } from '../src/machinery/free-port.js';
import { agentArgs, agentPlacement, etcdArgs, etcdServers, haproxyArgs, haproxyConfig, localLayout, nodeArgs, pkiArgs, type Layout } from './plan.js';

export interface ClusterOptions {
  /** Where everything lives (made absolute). */
  dataDir: string;
  /** kapi nodes (default 3). */
  nodes?: number;
  /** etcd members (default 3). */
  etcdMembers?: number;
  /** The balancer's port (default 6443; nodes take the next ones, etcd 2379 and up). 0: every port is picked free. */
  port?: number;
  /** Extra flags for every kapi node (tests shorten leader election with them). */
  nodeFlags?: string[];
  /** Simulated nodes (`kapi agent` processes against the followers; default 0). */
  simulatedNodes?: number;
  /** How long to wait for each part to come up (ms). */
  startTimeoutMs?: number;
  /** Progress lines (the launcher's own log). */
  log?: (msg: string, fields?: Record<string, unknown>) => void;
}

interface SavedLayout {
  balancer: number;
  nodes: number[];
  /** The nodes' balancer check ports (a layout saved before they existed gets free ones). */
  checks: number[];
  etcd: { client: number; peer: number }[];
}

/** The compiled `kapi` entry point, from dist/cluster/ (built) or cluster/ (tests run the source). */
const HERE = dirname(fileURLToPath(import.meta.url));
const CLI = basename(dirname(HERE)) === 'dist' ? join(HERE, '..', 'src', 'cli.js') : join(HERE, '..', 'dist', 'src', 'cli.js');

function findBinary(env: string, name: string, fallbacks: string[]): string {
  const fromEnv = process.env[env];
  if (fromEnv) return fromEnv;
  for (const dir of (process.env.PATH ?? '').split(':').filter(Boolean)) {
    if (existsSync(join(dir, name))) return join(dir, name);
  }
  for (const f of fallbacks) if (existsSync(f)) return f;
  throw new Error(`${name} not found (install the Debian package, or set ${env}); scripts/test.sh installs it`);
}

/** One GET with a short timeout: the status and body, or undefined when nothing answered. */
export function probe(url: string, timeoutMs = 1000): Promise<{ status: number; body: string } | undefined> {
  return new Promise((res) => {
    const req = (url.startsWith('https:') ? httpsRequest : httpRequest)(url, { timeout: timeoutMs, rejectUnauthorized: false, agent: false }, (r) => {
      let body = '';
      r.setEncoding('utf8');
      r.on('data', (c: string) => (body += c));
      r.on('end', () => res({ status: r.statusCode ?? 0, body }));
      r.on('error', () => res(undefined));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => res(undefined));
    req.end();
  });
}

/** One POST with a short timeout (etcd's JSON gateway). */
function post(url: string, body: string, timeoutMs = 1000): Promise<{ status: number; body: string } | undefined> {
  return new Promise((res) => {
    const req = httpRequest(url, { method: 'POST', timeout: timeoutMs, agent: false, headers: { 'content-type': 'application/json' } }, (r) => {
      let text = '';
      r.setEncoding('utf8');
      r.on('data', (c: string) => (text += c));
      r.on('end', () => res({ status: r.statusCode ?? 0, body: text }));
      r.on('error', () => res(undefined));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => res(undefined));
    req.end(body);
  });
}

/** One child process of the cluster, started again with the same command line on restart. */
export class ClusterProcess {
  private child?: ChildProcess;
  private exited?: Promise<void>;
  private paused = false;

  constructor(
    readonly name: string,
    private readonly command: string,
    private readonly args: string[],
    private readonly logPath: string,
    private readonly pidPath: string,
  ) {}

  get pid(): number | undefined {
    return this.running ? this.child?.pid : undefined;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  get isPaused(): boolean {
    return this.running && this.paused;
  }

  /** The command line, for logs and docker-compose comparisons. */
  get commandLine(): string[] {
    return [this.command, ...this.args];
  }

  /** Where this run's output starts in the log file. */
  protected logStart = 0;

  /** What this run of the process logged so far. */
  runLogs(): string {
    return this.logs().slice(this.logStart);
  }

  async spawn(): Promise<void> {
    if (this.running) return;
    this.logStart = this.logs().length;
    const out = openSync(this.logPath, 'a');
    // Its own process group: a Ctrl-C in the terminal reaches the launcher only, which then
    // stops everything in order (nodes before etcd, so they can hand their leases back).
    const child = spawn(this.command, this.args, { stdio: ['ignore', out, out], detached: true });
    closeSync(out);
    this.child = child;
    this.paused = false;
    this.exited = new Promise((r) => child.once('exit', () => r()));
    await new Promise<void>((res, rej) => {
      child.once('spawn', () => res());
      child.once('error', rej);
    });
    await writeFile(this.pidPath, `${child.pid}\n`);
  }

  private signal(sig: NodeJS.Signals): void {
    if (this.running) this.child!.kill(sig);
  }

  /** kill -9, and wait until it is gone. */
  async kill(): Promise<void> {
    if (!this.running) return;
    this.signal('SIGKILL');
    await this.exited;
  }

  /** SIGTERM (a clean shutdown), then SIGKILL after `graceMs`. */
  async stop(graceMs = 10_000): Promise<void> {
    if (!this.running) return;
    if (this.paused) this.resume();
    this.signal('SIGTERM');
    const t = setTimeout(() => this.signal('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(t);
  }

  /** SIGSTOP: the process stays, its sockets stay open, and nothing answers. */
  pause(): void {
    this.signal('SIGSTOP');
    this.paused = true;
  }

  resume(): void {
    this.signal('SIGCONT');
    this.paused = false;
  }

  /** Every log line the process wrote (all its runs). */
  logs(): string {
    try {
      return readFileSync(this.logPath, 'utf8');
    } catch {
      return '';
    }
  }
}

export class EtcdMember extends ClusterProcess {
  constructor(
    name: string,
    command: string,
    args: string[],
    logPath: string,
    pidPath: string,
    /** Client URL. */
    readonly endpoint: string,
  ) {
    super(name, command, args, logPath, pidPath);
  }

  async healthy(): Promise<boolean> {
    const r = await probe(`${this.endpoint}/health`);
    return r?.status === 200 && r.body.includes('true');
  }

  /** Its member id and the id of the leader it follows (etcd's maintenance status); undefined when it does not answer. */
  async status(): Promise<{ memberId: string; leader: string } | undefined> {
    const r = await post(`${this.endpoint}/v3/maintenance/status`, '{}');
    if (r?.status !== 200) return undefined;
    try {
      const s = JSON.parse(r.body) as { header?: { member_id?: string }; leader?: string };
      return s.header?.member_id && s.leader ? { memberId: s.header.member_id, leader: s.leader } : undefined;
    } catch {
      return undefined;
    }
  }

  async start(timeoutMs = 30_000): Promise<void> {
    await this.spawn();
    await waitFor(`etcd member ${this.name}`, timeoutMs, () => this.healthy(), () => this.logs().slice(-2000), () => this.running);
  }
}

export class KapiNodeProcess extends ClusterProcess {
  constructor(
    name: string,
    command: string,
    args: string[],
    logPath: string,
    pidPath: string,
    readonly url: string,
    /** The node's own kubeconfig (it writes it at start). */
    readonly ownKubeconfig: string,
    /** The copy under the cluster directory: node-<i>.kubeconfig. */
    readonly kubeconfig: string,
  ) {
    super(name, command, args, logPath, pidPath);
  }

  async ready(): Promise<boolean> {
    return (await probe(`${this.url}/readyz`))?.status === 200;
  }

  /**
   * Starts the node and waits until it logged its ready line (its kubeconfig is written then)
   * and /readyz answers 200 (its cache is built and etcd answers).
   */
  async start(timeoutMs = 30_000): Promise<void> {
    await this.spawn();
    const started = async (): Promise<boolean> => this.runLogs().includes('"msg":"kapi ready"') && (await this.ready());
    await waitFor(`kapi node ${this.name}`, timeoutMs, started, () => this.runLogs().slice(-3000), () => this.running);
    await writeFile(this.kubeconfig, await readFile(this.ownKubeconfig));
  }

  /** kill -9 and start again on the same port and data. */
  async restart(timeoutMs?: number): Promise<void> {
    await this.kill();
    await this.start(timeoutMs);
  }
}

/** A `kapi agent` process: simulated nodes against one kapi node. */
export class AgentProcess extends ClusterProcess {
  constructor(
    name: string,
    command: string,
    args: string[],
    logPath: string,
    pidPath: string,
    /** The kapi node it talks to, and its simulated nodes. */
    readonly node: string,
    readonly nodeNames: string[],
  ) {
    super(name, command, args, logPath, pidPath);
  }

  async start(timeoutMs = 30_000): Promise<void> {
    await this.spawn();
    await waitFor(`kapi agent ${this.name}`, timeoutMs, () => Promise.resolve(this.runLogs().includes('"msg":"kapi agent ready"')), () => this.runLogs().slice(-3000), () => this.running);
  }
}

async function waitFor(what: string, timeoutMs: number, ok: () => Promise<boolean>, logs: () => string, alive: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await ok()) return;
    if (!alive()) throw new Error(`${what} exited while starting:\n${logs()}`);
    await sleep(100);
  }
  throw new Error(`${what} was not ready after ${timeoutMs} ms:\n${logs()}`);
}

/** Kills processes a previous launcher of this directory left behind (it was killed itself). */
async function reapLeftovers(runDir: string, dir: string): Promise<string[]> {
  const reaped: string[] = [];
  if (!existsSync(runDir)) return reaped;
  const { readdir } = await import('node:fs/promises');
  for (const f of await readdir(runDir)) {
    if (!f.endsWith('.pid')) continue;
    const pid = Number((await readFile(join(runDir, f), 'utf8')).trim());
    if (!Number.isInteger(pid) || pid <= 0) continue;
    let cmdline = '';
    try {
      cmdline = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).replaceAll('\0', ' ');
    } catch {
      continue;
    }
    // Only a process of this cluster: its command line names this directory.
    if (!cmdline.includes(dir)) continue;
    try {
      process.kill(pid, 'SIGCONT');
      process.kill(pid, 'SIGKILL');
      reaped.push(f.slice(0, -4));
    } catch {
      // Gone meanwhile.
    }
  }
  if (reaped.length) await sleep(200);
  return reaped;
}

export class Cluster {
  readonly etcd: EtcdMember[];
  readonly nodes: KapiNodeProcess[];
  readonly agents: AgentProcess[];
  readonly balancer: ClusterProcess;
  readonly balancerUrl: string;
  /** <dir>/admin.kubeconfig: kubectl through the balancer. */
  readonly kubeconfig: string;
  private stopped = false;
  private readonly onExit = (): void => {
    for (const p of this.all()) if (p.running) p.kill().catch(() => undefined);
  };

  private constructor(
    readonly dir: string,
    readonly layout: Layout,
    bins: { etcd: string; haproxy: string },
    private readonly log: (msg: string, fields?: Record<string, unknown>) => void,
    simulatedNodes = 0,
  ) {
    const logs = join(dir, 'logs');
    const run = join(dir, 'run');
    this.etcd = layout.etcd.map(
      (m) => new EtcdMember(m.name, bins.etcd, etcdArgs(layout, m), join(logs, `${m.name}.log`), join(run, `${m.name}.pid`), `http://${m.host}:${m.clientPort}`),
    );
    const scheme = layout.plainHTTP ? 'http' : 'https';
    this.nodes = layout.nodes.map(
      (n, i) =>
        new KapiNodeProcess(
          n.name,
          process.execPath,
          [CLI, ...nodeArgs(layout, n)],
          join(logs, `${n.name}.log`),
          join(run, `${n.name}.pid`),
          `${scheme}://${n.host}:${n.port}`,
          join(n.dataDir, 'admin.kubeconfig'),
          join(dir, `node-${i + 1}.kubeconfig`),
        ),
    );
    this.agents = agentPlacement(layout, simulatedNodes).map(
      ([n, names]) =>
        new AgentProcess(`agent-${n.name}`, process.execPath, [CLI, ...agentArgs(layout, n, names)], join(logs, `agent-${n.name}.log`), join(run, `agent-${n.name}.pid`), n.name, names),
    );
    const cfg = join(dir, 'haproxy.cfg');
    this.balancer = new ClusterProcess('haproxy', bins.haproxy, haproxyArgs(cfg), join(logs, 'haproxy.log'), join(run, 'haproxy.pid'));
    this.balancerUrl = `${scheme}://${layout.balancer.listen}:${layout.balancer.port}`;
    this.kubeconfig = join(dir, 'admin.kubeconfig');
  }

  /** Starts (or resumes) the cluster in `opts.dataDir` and waits until all of it is ready. */
  static async start(opts: ClusterOptions): Promise<Cluster> {
    const dir = resolve(opts.dataDir);
    const log = opts.log ?? (() => undefined);
    const bins = {
      etcd: findBinary('ETCD_BIN', 'etcd', ['/usr/bin/etcd']),
      haproxy: findBinary('HAPROXY_BIN', 'haproxy', ['/usr/sbin/haproxy']),
    };
    await mkdir(join(dir, 'logs'), { recursive: true });
    await mkdir(join(dir, 'run'), { recursive: true });
    const reaped = await reapLeftovers(join(dir, 'run'), dir);
    if (reaped.length) log('stopped processes an earlier launcher left running', { processes: reaped });
    const saved = await Cluster.layoutFor(dir, opts);
    const layout = localLayout(dir, saved, opts.nodeFlags ?? []);
    const cluster = new Cluster(dir, layout, bins, log, opts.simulatedNodes ?? 0);
    process.once('exit', cluster.onExit);
    try {
      await cluster.startAll(opts.startTimeoutMs ?? 60_000);
    } catch (e) {
      await cluster.stop();
      throw e;
    }
    return cluster;
  }

  /** The saved layout, or a new one (saved) on the first start. */
  private static async layoutFor(dir: string, opts: ClusterOptions): Promise<SavedLayout> {
    const file = join(dir, 'cluster.json');
    const nodes = opts.nodes ?? 3;
    const members = opts.etcdMembers ?? 3;
    if (existsSync(file)) {
      const saved = JSON.parse(await readFile(file, 'utf8')) as Omit<SavedLayout, 'checks'> & { checks?: number[] };
      if (opts.etcdMembers !== undefined && opts.etcdMembers !== saved.etcd.length) {
        throw new Error(`the cluster in ${dir} has ${saved.etcd.length} etcd members; it cannot resume with --etcd-members ${opts.etcdMembers}`);
      }
      if (opts.nodes !== undefined && opts.nodes !== saved.nodes.length) {
        throw new Error(`the cluster in ${dir} has ${saved.nodes.length} nodes; it cannot resume with --nodes ${opts.nodes}`);
      }
      if (saved.checks === undefined) {
        const upgraded: SavedLayout = { ...saved, checks: await Promise.all(saved.nodes.map(() => freePort())) };
        await writeFile(file, `${JSON.stringify(upgraded, null, 2)}\n`);
        return upgraded;
      }
      return { ...saved, checks: saved.checks };
    }
    if (nodes < 1 || members < 1) throw new Error('a cluster needs at least one node and one etcd member');
    const base = opts.port ?? 6443;
    const pick = async (fixed: number): Promise<number> => (base === 0 ? freePort() : fixed);
    const layout: SavedLayout = { balancer: await pick(base), nodes: [], checks: [], etcd: [] };
    for (let i = 0; i < nodes; i++) layout.nodes.push(await pick(base + 1 + i));
    // After the nodes' ports: 6447 and up for three nodes.
    for (let i = 0; i < nodes; i++) layout.checks.push(await pick(base + 1 + nodes + i));
    for (let i = 0; i < members; i++) layout.etcd.push({ client: await pick(2379 + 2 * i), peer: await pick(2380 + 2 * i) });
    await writeFile(file, `${JSON.stringify(layout, null, 2)}\n`);
    return layout;
  }

  private *all(): Iterable<ClusterProcess> {
    yield* this.agents;
    yield this.balancer;
    yield* this.nodes;
    yield* this.etcd;
  }

  private async startAll(timeoutMs: number): Promise<void> {
    const t0 = performance.now();
    // Members wait for each other to form a quorum, so they start together.
    await Promise.all(this.etcd.map((m) => m.start(timeoutMs)));
    this.log('etcd cluster ready', { members: this.etcd.map((m) => m.endpoint), ms: Math.round(performance.now() - t0) });
    // One CA for every node (made on the first start, reused after): a client that trusts it
    // and holds the admin certificate talks to any node, and through the balancer.
    if (!this.layout.plainHTTP) await promisify(execFile)(process.execPath, [CLI, ...pkiArgs(this.layout)]);
    await Promise.all(this.nodes.map((n) => n.start(timeoutMs)));
    this.log('kapi nodes ready', { nodes: this.nodes.map((n) => n.url), ms: Math.round(performance.now() - t0) });
    await writeFile(join(this.dir, 'haproxy.cfg'), haproxyConfig(this.layout));
    // With TLS, `kapi pki` wrote it already.
    if (this.layout.plainHTTP) await this.writeBalancerKubeconfig();
    await this.balancer.spawn();
    await waitFor('haproxy', timeoutMs, async () => (await probe(`${this.balancerUrl}/readyz`))?.status === 200, () => this.balancer.logs(), () => this.balancer.running);
    if (this.agents.length > 0) {
      await Promise.all(this.agents.map((a) => a.start(timeoutMs)));
      this.log('simulated nodes running', { agents: this.agents.map((a) => ({ node: a.node, nodes: a.nodeNames })) });
    }
  }

  /** node-1's kubeconfig (its credentials) with the balancer as the server. */
  private async writeBalancerKubeconfig(): Promise<void> {
    const text = await readFile(this.nodes[0]!.kubeconfig, 'utf8');
    await writeFile(this.kubeconfig, text.replace(/^(\s*server:\s*).*$/m, `$1${this.balancerUrl}`), { mode: 0o600 });
  }

  /** The etcd member that leads now, as the running members see it. */
  async etcdLeader(): Promise<EtcdMember | undefined> {
    const live = this.etcd.filter((m) => m.running && !m.isPaused);
    const statuses = await Promise.all(live.map((m) => m.status()));
    const leader = statuses.find((x) => x)?.leader;
    const i = statuses.findIndex((x) => x?.memberId === leader);
    return i >= 0 ? live[i] : undefined;
  }

  /** Restarts every node, then every etcd member, one at a time, each ready before the next. */
  async rollingRestart(): Promise<void> {
    for (const n of this.nodes) {
      await n.stop();
      await n.start();
    }
    for (const m of this.etcd) {
      await m.stop(3000);
      await m.start();
    }
  }

  /** The etcd client URLs the nodes use. */
  get etcdServers(): string {
    return etcdServers(this.layout);
  }

  /** Stops everything it started: the balancer, the nodes (cleanly), then etcd. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    process.removeListener('exit', this.onExit);
    await Promise.all(this.agents.map((a) => a.stop(5000)));
    await this.balancer.stop(2000);
    await Promise.all(this.nodes.map((n) => n.stop()));
    // etcd is crash-safe; a member that hands leadership to one that is stopping too can
    // take long over it.
    await Promise.all(this.etcd.map((m) => m.stop(3000)));
  }
}
