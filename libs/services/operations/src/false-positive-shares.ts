/**
 * The false-positive share per detector as a metric (`wayfinder.false_positive.share{tenant,detector}`,
 * DESIGN §8, §13): for each tenant an operator marked a deviation of in this process, the share of each
 * detector's deviations in the tenant's retained history that are marked, computed from the history
 * store when a mark is made and again every 30 s (new deviations lower it). Each mark is also counted
 * (`wayfinder.false_positives`), so Prometheus can relate it to `wayfinder_deviations_total` fleet-wide.
 */
import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { falsePositiveShares, type HistoryStore } from '@wayfinder/history';
import { PeriodicTask } from '@wayfinder/service-core';
import { navigationMetrics, type NavigationMetrics } from '@wayfinder/telemetry';
import { HISTORY_STORE } from './tokens';

const MAX_TENANTS = 10_000;

@Injectable()
export class FalsePositiveShares implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('operations');
  private readonly tenants = new Set<string>();
  private readonly timer: PeriodicTask;

  constructor(
    @Inject(HISTORY_STORE) private readonly store: HistoryStore,
    private readonly metrics: NavigationMetrics = navigationMetrics(),
  ) {
    this.timer = new PeriodicTask({ name: 'false-positive share', everyMs: 30_000, run: () => this.refreshAll(), onError: (name, error) => this.logger.warn(`${name} failed (retried): ${(error as Error).message}`) });
  }

  onModuleInit(): void {
    this.timer.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.timer.stop();
  }

  /** A deviation of `detector` was marked: counted, and the tenant's shares computed now. */
  async marked(tenantId: string, detector: string): Promise<void> {
    this.metrics.falsePositiveMarked(tenantId, detector);
    if (!this.tenants.has(tenantId) && this.tenants.size >= MAX_TENANTS) this.tenants.delete(this.tenants.values().next().value as string);
    this.tenants.add(tenantId);
    await this.refresh(tenantId);
  }

  async refresh(tenantId: string): Promise<void> {
    const records = await this.store.tenantHistory(tenantId, { kinds: ['deviation', 'false-positive'] });
    this.metrics.falsePositiveShares(tenantId, falsePositiveShares(records));
  }

  private async refreshAll(): Promise<void> {
    for (const tenantId of this.tenants) await this.refresh(tenantId);
  }
}
