// The load balancer's health check (--balancer-check-port): a plain HTTP port beside the API,
// for haproxy's `http-check disable-on-404` in the replicated mode (cluster/plan.ts).
//
// Why not /readyz: during a graceful shutdown kube's /readyz fails at once, so haproxy marks
// the node DOWN, and `on-marked-down shutdown-sessions` (needed to take a paused node's
// sessions away from it) then cuts the requests the node is still serving. And once the
// node stops accepting, any check on the API port is refused, which marks it DOWN again while
// requests are in flight. This port tells the three states apart, and stays open until the
// process is done:
//
//   200  ready (every /readyz check passes): in rotation
//   404  shutting down: haproxy drains the node (NOLB): no new connections, and the ones it
//        has are left to finish; the node itself ends them (Connection: close, GOAWAY)
//   500  not ready (no etcd quorum, still starting): DOWN, its sessions cut
//
// A node that is paused or killed answers nothing here either, so it still goes DOWN within
// the check's fall time. The API's own health endpoints are untouched: API clients never see
// this port.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BalancerCheckSources {
  /** Shutdown has begun (SIGTERM): from then on, until the process exits, the answer is 404. */
  shuttingDown(): boolean;
  /** The names of the /readyz checks that fail now (the shutdown check left out). */
  readinessFailures(): Promise<string[]>;
}

export class BalancerCheck {
  private readonly server: Server;

  constructor(src: BalancerCheckSources) {
    // Any method and path: haproxy's check asks `GET /`.
    this.server = createServer((req, res) => {
      req.resume();
      const answer = (status: number, text: string): void => {
        res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' });
        res.end(`${text}\n`);
      };
      if (src.shuttingDown()) {
        answer(404, 'shutting down: draining');
        return;
      }
      src.readinessFailures().then(
        (failed) => (failed.length === 0 ? answer(200, 'ok') : answer(500, `not ready: ${failed.join(', ')}`)),
        (err: unknown) => answer(500, `not ready: ${String(err)}`),
      );
    });
    this.server.keepAliveTimeout = 0;
  }

  listen(port: number, host: string): Promise<AddressInfo> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        resolve(this.server.address() as AddressInfo);
      });
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}
