import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller.js';
import { HealthRepository } from './health.repository.js';
import { Readiness } from './readiness.js';

// Failed checks are answered (503 with the failing check named), not logged: a draining instance
// would log one per probe.
@Module({ imports: [TerminusModule.forRoot({ logger: false })], controllers: [HealthController], providers: [HealthRepository, Readiness] })
export class HealthModule {}
