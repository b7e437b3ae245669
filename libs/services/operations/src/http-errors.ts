/** The one error body of the HTTP API: `{error, field?, index?}`. */
import { HttpException } from '@nestjs/common';

export function httpError(status: number, error: string, field?: string): HttpException {
  return new HttpException(field === undefined ? { error } : { error, field }, status);
}
