/**
 * Keeps a handler's error as it was thrown. Nest's default RPC filter turns any error that is not an
 * RpcException into `{ status: 'error', message: 'Internal server error' }`, so the bus would retry and
 * dead-letter with that instead of the reason (a webhook's 404, a store that refused): operators reading
 * the DLQ (`wayfinder dlq list`) need the real one. Logged like Nest's own filter does. Every BusTransport
 * app uses this filter.
 */
import { Catch, Logger, type ArgumentsHost, type RpcExceptionFilter } from '@nestjs/common';
import { throwError, type Observable } from 'rxjs';

@Catch()
export class HandlerErrorFilter implements RpcExceptionFilter<unknown> {
  private static readonly logger = new Logger('RpcExceptionsHandler');

  catch(exception: unknown, _host: ArgumentsHost): Observable<never> {
    HandlerErrorFilter.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    return throwError(() => exception);
  }
}
