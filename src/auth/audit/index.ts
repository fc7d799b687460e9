// The audit pipeline's parts the server wires: the policy evaluated per request and the sink
// events are written to. Auditing is on only with both --audit-policy-file and
// --audit-log-path, as in kube (a log path without a policy logs nothing).

import type { AuditSink } from './log-backend.js';
import { evaluatePolicy, type AuditAttributes, type Policy, type RequestAuditConfig } from './policy.js';
import { eventJSON, type AuditEvent } from './event.js';

export * from './policy.js';
export * from './event.js';
export { openAuditSink, type AuditSink, type LogBackendOptions } from './log-backend.js';

export class Auditor {
  constructor(
    private readonly policy: Policy,
    private readonly sink: AuditSink,
  ) {}

  evaluate(a: AuditAttributes): RequestAuditConfig {
    return evaluatePolicy(this.policy, a);
  }

  emit(e: AuditEvent): void {
    this.sink.write(eventJSON(e));
  }

  close(): void {
    this.sink.close();
  }
}
