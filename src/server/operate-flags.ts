// The operating flags of `kapi serve`, with kube-apiserver's names, defaults, help and
// checks: feature gates, API enablement, metrics visibility, in-flight limits, request
// timeout, graceful shutdown and encryption at rest. cli.ts spreads these options into its
// own and hands the parsed values here.

import type { Logger } from 'pino';
import { FeatureGateError, applyFeatureGates, knownFeatures, parseFeatureGates } from '../machinery/feature-gates.js';
import { aggregate, strconvParseBool } from '../machinery/go-format.js';
import { formatGoDuration, parseGoDuration } from '../machinery/go-duration.js';
import { parseRuntimeConfig, resolveRuntimeConfig, RuntimeConfigError, type APIEnablement } from './runtime-config.js';
import { setShowHiddenMetrics, validateShowHiddenMetricsVersion } from '../machinery/metrics-registry.js';

export interface OperateConfig {
  /** --runtime-config, resolved. */
  enablement: APIEnablement;
  /** --max-requests-inflight and --max-mutating-requests-inflight; 0 is no limit. */
  maxRequestsInflight: number;
  maxMutatingRequestsInflight: number;
  /** --request-timeout, ms. */
  requestTimeoutMs: number;
  /** --shutdown-delay-duration, ms. */
  shutdownDelayMs: number;
  /** --shutdown-send-retry-after */
  shutdownSendRetryAfter: boolean;
  /** --shutdown-watch-termination-grace-period, ms (0: watches end at once). */
  shutdownWatchTerminationGraceMs: number;
  /** --livez-grace-period, ms. */
  livezGracePeriodMs: number;
  /** --encryption-provider-config */
  encryptionProviderConfig?: string;
}

const DEFAULTS = {
  maxRequestsInflight: 400,
  maxMutatingRequestsInflight: 200,
  requestTimeoutMs: 60_000,
};

/** parseArgs option specs of the operating flags (merged into cli.ts's). */
export const OPERATE_OPTIONS = {
  'feature-gates': { type: 'string', multiple: true, default: [] as string[] },
  'runtime-config': { type: 'string', multiple: true, default: [] as string[] },
  'show-hidden-metrics-for-version': { type: 'string', default: '' },
  'max-requests-inflight': { type: 'string', default: String(DEFAULTS.maxRequestsInflight) },
  'max-mutating-requests-inflight': { type: 'string', default: String(DEFAULTS.maxMutatingRequestsInflight) },
  'request-timeout': { type: 'string', default: formatGoDuration(DEFAULTS.requestTimeoutMs) },
  'shutdown-delay-duration': { type: 'string', default: '0s' },
  'shutdown-send-retry-after': { type: 'string', default: 'false' },
  'shutdown-watch-termination-grace-period': { type: 'string', default: '0s' },
  'livez-grace-period': { type: 'string', default: '0s' },
  'encryption-provider-config': { type: 'string', default: '' },
} as const;

/** pflag's bool flags take an optional value: the bare flag means true. */
export function normalizeOperateArgs(argv: string[]): string[] {
  return argv.map((a) => (a === '--shutdown-send-retry-after' ? '--shutdown-send-retry-after=true' : a));
}

const INDENT = ' '.repeat(36);

/** The help lines of the operating flags, in the shape of cli.ts's USAGE. */
export function operateUsage(): string {
  const gates = knownFeatures().map((g) => `${INDENT}  ${g}`).join('\n');
  return [
    `  --feature-gates string            comma-separated list of [kube:]key=value pairs that describe feature gates for`,
    `${INDENT}alpha/experimental features; may be repeated. Options are:`,
    gates,
    `  --runtime-config string           key=value pairs that enable or disable built-in APIs: v1=true|false for the core`,
    `${INDENT}API group, <group>/<version>[/<resource>]=true|false, api/all, api/ga, api/beta, api/alpha=true|false`,
    `  --show-hidden-metrics-for-version string  the previous version (1.32) whose hidden metrics to show`,
    `  --max-requests-inflight int       maximum non-mutating requests in flight; 0 is no limit (default 400)`,
    `  --max-mutating-requests-inflight int  maximum mutating requests in flight; 0 is no limit (default 200)`,
    `  --request-timeout duration        the default timeout of a request (default 1m0s)`,
    `  --shutdown-delay-duration duration  after SIGTERM, how long /readyz fails while requests are still served (default 0s)`,
    `  --shutdown-send-retry-after       after the delay, keep listening and answer new requests 429 with Retry-After until in-flight ones drain`,
    `  --shutdown-watch-termination-grace-period duration  how long shutdown waits for watches to drain (default 0s)`,
    `  --livez-grace-period duration     from start, how long /livez passes while start-up hooks are unfinished (default 0s)`,
    `  --encryption-provider-config string  an EncryptionConfiguration file (apiserver.config.k8s.io/v1): how objects are encrypted at rest`,
  ].join('\n');
}

export class OperateFlagError extends Error {
  /** A pflag parse error ("invalid argument ... for flag"): printed with the usage. */
  constructor(
    message: string,
    readonly usage = false,
  ) {
    super(message);
  }
}

export type OperateValues = { [K in keyof typeof OPERATE_OPTIONS]: (typeof OPERATE_OPTIONS)[K]['default'] extends string[] ? string[] : string };

function flagInt(values: OperateValues, flag: 'max-requests-inflight' | 'max-mutating-requests-inflight'): number {
  const v = values[flag];
  if (!/^[+-]?[0-9]+$/.test(v)) throw new OperateFlagError(`invalid argument ${JSON.stringify(v)} for "--${flag}" flag: strconv.ParseInt: parsing ${JSON.stringify(v)}: invalid syntax`, true);
  return Number(v);
}

function flagDuration(values: OperateValues, flag: 'request-timeout' | 'shutdown-delay-duration' | 'shutdown-watch-termination-grace-period' | 'livez-grace-period'): number {
  const v = values[flag];
  try {
    return parseGoDuration(v);
  } catch (e) {
    throw new OperateFlagError(`invalid argument ${JSON.stringify(v)} for "--${flag}" flag: ${(e as Error).message}`, true);
  }
}

/**
 * Reads, checks and applies the operating flags: feature gates take effect here (their
 * warnings go to `log`), the rest comes back as the node's config. Throws OperateFlagError
 * with kube's text (several problems aggregated as kube aggregates them).
 */
export function applyOperateFlags(values: OperateValues, log: Logger): OperateConfig {
  let sendRetryAfter: boolean;
  try {
    sendRetryAfter = strconvParseBool(values['shutdown-send-retry-after']);
  } catch (e) {
    throw new OperateFlagError(`invalid argument ${JSON.stringify(values['shutdown-send-retry-after'])} for "--shutdown-send-retry-after" flag: ${(e as Error).message}`, true);
  }
  const cfg = {
    maxRequestsInflight: flagInt(values, 'max-requests-inflight'),
    maxMutatingRequestsInflight: flagInt(values, 'max-mutating-requests-inflight'),
    requestTimeoutMs: flagDuration(values, 'request-timeout'),
    shutdownDelayMs: flagDuration(values, 'shutdown-delay-duration'),
    shutdownSendRetryAfter: sendRetryAfter,
    shutdownWatchTerminationGraceMs: flagDuration(values, 'shutdown-watch-termination-grace-period'),
    livezGracePeriodMs: flagDuration(values, 'livez-grace-period'),
    encryptionProviderConfig: values['encryption-provider-config'] || undefined,
  };
  // The checks kube's options run, in its order.
  const errs: string[] = [];
  if (cfg.livezGracePeriodMs < 0) errs.push('--livez-grace-period can not be a negative value');
  if (cfg.maxRequestsInflight < 0) errs.push('--max-requests-inflight can not be negative value');
  if (cfg.maxMutatingRequestsInflight < 0) errs.push('--max-mutating-requests-inflight can not be negative value');
  if (cfg.requestTimeoutMs < 0) errs.push('--request-timeout can not be negative value');
  if (cfg.shutdownDelayMs < 0) errs.push('--shutdown-delay-duration can not be negative value');
  if (cfg.shutdownWatchTerminationGraceMs < 0) errs.push('shutdown-watch-termination-grace-period, if provided, can not be a negative value');
  const hidden = validateShowHiddenMetricsVersion(values['show-hidden-metrics-for-version']);
  if (hidden) errs.push(hidden);
  let enablement: APIEnablement | undefined;
  try {
    const parsed = parseFeatureGates(values['feature-gates']);
    applyFeatureGates(parsed);
    for (const w of parsed.warnings) log.warn(w);
  } catch (e) {
    if (!(e instanceof FeatureGateError)) throw e;
    errs.push(e.message);
  }
  try {
    enablement = resolveRuntimeConfig(parseRuntimeConfig(values['runtime-config']));
  } catch (e) {
    if (!(e instanceof RuntimeConfigError)) throw e;
    errs.push(e.message);
  }
  if (errs.length) throw new OperateFlagError(aggregate(errs));
  if (values['show-hidden-metrics-for-version']) setShowHiddenMetrics(log);
  return { ...cfg, enablement: enablement! };
}

/** The config of a node started without any of these flags (tests, embedders). */
export function defaultOperateConfig(): OperateConfig {
  return {
    enablement: resolveRuntimeConfig(new Map()),
    maxRequestsInflight: DEFAULTS.maxRequestsInflight,
    maxMutatingRequestsInflight: DEFAULTS.maxMutatingRequestsInflight,
    requestTimeoutMs: DEFAULTS.requestTimeoutMs,
    shutdownDelayMs: 0,
    shutdownSendRetryAfter: false,
    shutdownWatchTerminationGraceMs: 0,
    livezGracePeriodMs: 0,
  };
}
