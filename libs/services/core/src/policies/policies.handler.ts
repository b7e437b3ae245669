/** Keeps the process's PolicyBook current from the compacted policies topic (applied live, DESIGN §6). */
import { Controller, Inject, Logger } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import type { TenantPolicy } from '@wayfinder/contracts';
import { validatePolicy, type PolicyBook } from '@wayfinder/detection';
import { POLICY_BOOK } from '../tokens';

@Controller()
export class PoliciesHandler {
  private readonly logger = new Logger('policies');

  constructor(@Inject(POLICY_BOOK) private readonly book: PolicyBook) {}

  @EventPattern('wayfinder.policies.v1')
  onPolicy(@Payload() policy: TenantPolicy): void {
    // The schema already passed; a policy that resolves to contradictory thresholds is refused here.
    const check = validatePolicy(policy.policy);
    if (!check.ok) {
      this.logger.warn(`tenant ${policy.tenantId}: policy ${policy.eventId} refused: ${check.error}`);
      return;
    }
    this.book.apply(policy);
  }
}
