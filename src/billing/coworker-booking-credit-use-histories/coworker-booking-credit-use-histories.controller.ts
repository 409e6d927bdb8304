import { Controller, Delete, HttpStatus, Patch, Post, Put } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { RequirePermission } from '../../common/access.js';
import { failureConfirmation } from '../../common/envelopes.js';
import { WireResponseException } from '../../common/errors.js';

const ENTITY = 'CoworkerBookingCreditUseHistory';

/**
 * The use history is written by bookings only: list and get answer, every other method is 405 with
 * `Allow: GET` (docs/bookings.md), for a caller who may read it (others: 401, as everywhere).
 */
@ApiExcludeController()
@Controller('api/billing/coworkerbookingcreditusehistories')
export class UseHistoryMethodsController {
  @Post()
  @RequirePermission(ENTITY, 'Read')
  create(): never {
    throw notAllowed();
  }

  @Post(':id')
  @RequirePermission(ENTITY, 'Read')
  createOne(): never {
    throw notAllowed();
  }

  @Put()
  @RequirePermission(ENTITY, 'Read')
  update(): never {
    throw notAllowed();
  }

  @Put(':id')
  @RequirePermission(ENTITY, 'Read')
  updateOne(): never {
    throw notAllowed();
  }

  @Patch()
  @RequirePermission(ENTITY, 'Read')
  patch(): never {
    throw notAllowed();
  }

  @Patch(':id')
  @RequirePermission(ENTITY, 'Read')
  patchOne(): never {
    throw notAllowed();
  }

  @Delete()
  @RequirePermission(ENTITY, 'Read')
  remove(): never {
    throw notAllowed();
  }

  @Delete(':id')
  @RequirePermission(ENTITY, 'Read')
  removeOne(): never {
    throw notAllowed();
  }
}

function notAllowed(): WireResponseException {
  return new WireResponseException(
    failureConfirmation(HttpStatus.METHOD_NOT_ALLOWED, 'The requested resource does not support this http method: the credit use history is written by bookings.'),
    HttpStatus.METHOD_NOT_ALLOWED,
    { Allow: 'GET' },
  );
}
