// JSON text that stands for a value inside an object on its way to storage. A create's
// managedFields entry is written straight as text (its FieldsV1 keys need escaping, which
// makes JSON.stringify of the equivalent object slow); encodeForStorage writes the text
// where the value goes. Only the create path makes these, and nothing reads the object
// between making one and encoding it.

export class RawJson {
  constructor(readonly json: string) {}
}
