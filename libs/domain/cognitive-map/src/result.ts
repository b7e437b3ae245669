/** Typed results: a known failure (a bad map) is a value the caller publishes, not an exception. */

export type Result<T, E = MapError> = { ok: true; value: T } | { ok: false; error: E };

export type MapErrorCode = 'cycle' | 'unknown_dependency' | 'too_many_milestones' | 'duplicate_id' | 'invalid_spec';

export interface MapError {
  code: MapErrorCode;
  /** The milestone (or field) ids the error is about, so an operator can find them. */
  ids: string[];
  message: string;
}

export const ok = <T>(value: T): Result<T, never> => ({ ok: true, value });
export const err = <E>(error: E): Result<never, E> => ({ ok: false, error });
