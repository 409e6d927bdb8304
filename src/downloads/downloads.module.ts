import { Module } from '@nestjs/common';
import { DownloadFilesRepository } from './download-files.repository.js';
import { DownloadsController } from './downloads.controller.js';
import { Downloads } from './downloads.js';

/** Temporary downloads by token (docs/settlement.md). */
@Module({ controllers: [DownloadsController], providers: [DownloadFilesRepository, Downloads], exports: [Downloads] })
export class DownloadsModule {}
