// What a controller's write throws when this node no longer leads.

/** Thrown by a controller's write when the node no longer leads. */
export class NotLeadingError extends Error {
  constructor() {
    super('this node no longer holds the controller lease');
  }
}
