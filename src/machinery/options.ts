// Option values shared by the write verbs (metav1.CreateOptions, UpdateOptions, PatchOptions),
// as the decoders read them.

/** metav1's fieldValidation: what a decoder does with unknown and duplicate fields. */
export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';
