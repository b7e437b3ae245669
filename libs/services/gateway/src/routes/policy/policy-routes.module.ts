/** Route family `/v1/policy`, and the policies topic that keeps this process's policy book current. */
import { Module } from '@nestjs/common';
import { PoliciesHandler } from '@wayfinder/service-core';
import { PolicyController } from './policy.controller';

@Module({ controllers: [PolicyController, PoliciesHandler] })
export class PolicyRoutesModule {}
