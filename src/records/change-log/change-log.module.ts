import { Global, Module } from '@nestjs/common';
import { ChangeLogRepository } from './change-log.repository.js';
import { ChangeLog } from './change-log.service.js';

/** The change log, which every record service writes to (global: the record machinery needs it everywhere). */
@Global()
@Module({ providers: [ChangeLogRepository, ChangeLog], exports: [ChangeLog] })
export class ChangeLogModule {}
