// The fixture format of recorded answers: a suite is a list of request sequences; each step
// holds the request as it is sent and the reference server's answer as it came back, with
// generated values masked (mask.ts). Tests replay the requests against kapi, mask kapi's
// answers the same way and compare (compare.ts); they never need the reference server.

/** A request as a client sends it. */
export interface RequestSpec {
  /** GET, POST, PUT, PATCH, DELETE, HEAD, or any other method (sent as it is). */
  method: string;
  /** The path with its query, e.g. `/apis/apps/v1/namespaces/default/statefulsets/a?fieldManager=x`. */
  path: string;
  /** Request headers (content-type, accept, user-agent, ...); names in lower case. */
  headers?: Record<string, string>;
  /** A JSON value sent as JSON text, or a string sent as it is (YAML, malformed bodies). */
  body?: unknown;
  /** The body as raw bytes, base64: invalid UTF-8, protobuf, CBOR. */
  bodyBase64?: string;
  /**
   * The body is an earlier step's answer (as that server answered it, unmasked) with a JSON
   * merge patch applied: a read-modify-write, as a client does it (the PUT then carries the
   * resourceVersion and managedFields the server itself handed out).
   */
  bodyFrom?: { step: number; mergePatch?: unknown };
}

/** What a server answered, masked. */
export interface Answer {
  status: number;
  /** The Content-Type header, as sent. */
  contentType?: string;
  /** Every Warning header, in order. */
  warnings?: string[];
  /**
   * The body: parsed JSON (masked), or the text when it is not JSON. YAML, protobuf and CBOR
   * bodies are read into their JSON value (bodyFormat says which) and masked like JSON, so
   * they compare across servers; a watch stream is its list of events (bodyFormat `stream`).
   */
  body?: unknown;
  /** How the body was read, when it was not JSON text: yaml, protobuf, cbor, stream, or bytes (base64 of what could not be read). */
  bodyFormat?: 'yaml' | 'protobuf' | 'cbor' | 'stream' | 'bytes';
  /** The headers a step asked to compare (Step.headers), by lower-case name. */
  headers?: Record<string, string>;
}

export interface Step {
  /** What the step does, for people reading a difference. */
  note?: string;
  req: RequestSpec;
  /**
   * This step reads back the result of step N (an index in the sequence): the two count as
   * one step of the sequence in agreement figures (replay.ts).
   */
  checks?: number;
  /** Clean-up: sent, but its answer is neither compared nor counted (what is left to tidy differs between servers). */
  cleanup?: boolean;
  /** Only the status and headers are compared (a body that lists what each server serves). */
  ignoreBody?: boolean;
  /** Response headers compared besides Content-Type and Warning (lower-case names, e.g. `allow`). */
  headers?: string[];
}

export interface RecordedStep extends Step {
  answer: Answer;
}

export interface Sequence<S extends Step = Step> {
  name: string;
  steps: S[];
}

export interface Fixture {
  suite: string;
  /** The reference server's gitVersion when it was recorded. */
  recordedWith: string;
  /** How the suite's requests were generated (e.g. the seed of a random suite). */
  generator?: Record<string, unknown>;
  sequences: Sequence<RecordedStep>[];
}

/** A suite: named request sequences (scripts/oracle-record/suites/). */
export interface Suite {
  name: string;
  /** Written into the fixture (the seed and sizes of a generated suite). */
  generator?: Record<string, unknown>;
  /** Write the fixtures gzipped (`.json.gz`): for large generated suites nobody reads line by line. */
  gzip?: boolean;
  sequences(): Sequence[];
}
