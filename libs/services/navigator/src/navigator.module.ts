import { Module } from '@nestjs/common';
import { DelegationsHandler } from '@wayfinder/service-core';
import { NavigationHandler } from './navigation.handler';

// The tenants' cross_agent_cycle graphs (fed by the navigators' delegation signals when distributed).
@Module({ controllers: [NavigationHandler, DelegationsHandler] })
export class NavigatorModule {}
