import { Module } from '@nestjs/common';
import { NavigationHandler } from './navigation.handler';

@Module({ controllers: [NavigationHandler] })
export class NavigatorModule {}
