import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../platform/access.js';
import { bulkTurn } from '../platform/bulk-lane.js';
import { RecordNotFoundException } from '../records/errors.js';
import { ApiAnswer, ref } from '../http/openapi.js';
import { DOWNLOAD_PATH, Downloads } from './downloads.js';

/** `filename` and `filename*` (RFC 6266) for any name: an ASCII fallback and the name itself. */
export function contentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

@ApiTags('Downloads')
@Controller(DOWNLOAD_PATH.slice(1))
export class DownloadsController {
  constructor(private readonly downloads: Downloads) {}

  /** A file made for download (an invoice's PDF): the link works without credentials until it expires, then 404. */
  @Public()
  @Get()
  @ApiOperation({ summary: 'Download a temporary file by its token (COWORKER_INVOICE_PRINT)' })
  @ApiQuery({ name: 'uniqueId', required: true })
  @ApiQuery({ name: 'downloadFileName', required: false })
  @ApiResponse({
    status: 200,
    description: 'The file: an invoice PDF, or Invoices.zip holding one PDF per invoice.',
    content: {
      'application/pdf': { schema: { type: 'string', format: 'binary' } },
      'application/zip': { schema: { type: 'string', format: 'binary' } },
    },
  })
  @ApiAnswer(404, 'No such token, or its link expired.', ref('NotFound'))
  async download(@Query('uniqueId') token: unknown, @Res() reply: FastifyReply): Promise<void> {
    // Sending a file is bulk work (docs/settlement.md, "The PDF and its download").
    await bulkTurn();
    const file = await this.downloads.fetch(token);
    if (!file) throw new RecordNotFoundException();
    await reply
      .header('Content-Type', file.ContentType)
      .header('Content-Disposition', contentDisposition(file.FileName))
      .header('Cache-Control', 'no-store')
      .send(file.Content);
  }
}
