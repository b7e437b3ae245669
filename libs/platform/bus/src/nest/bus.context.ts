/** The Nest RPC context of a message delivered by BusTransport (`@Ctx() ctx: BusContext`). */
import { BaseRpcContext } from '@nestjs/microservices';
import type { Delivered } from '../bus';

export class BusContext extends BaseRpcContext<[Delivered<unknown>]> {
  constructor(delivered: Delivered<unknown>) {
    super([delivered]);
  }

  getDelivered(): Delivered<unknown> {
    return this.args[0];
  }

  getTopic(): string {
    return this.args[0].topic;
  }

  getPartition(): number {
    return this.args[0].partition;
  }

  getOffset(): string {
    return this.args[0].offset;
  }

  getKey(): string | null {
    return this.args[0].key;
  }

  getHeaders(): Readonly<Record<string, string>> {
    return this.args[0].headers;
  }
}

/** The context of a batch handler (`@BatchEventPattern`): every delivery of the batch, in order. */
export class BusBatchContext extends BaseRpcContext<[Delivered<unknown>[]]> {
  constructor(batch: Delivered<unknown>[]) {
    super([batch]);
  }

  getBatch(): Delivered<unknown>[] {
    return this.args[0];
  }
}
