import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsOptional, IsString, Matches, MinLength } from 'class-validator';
import { Bool, EmailAddress, IdList, Reference, Text } from '../../../records/validation/fields.js';
import { RecordDto } from '../../../records/validation/record.dto.js';
import { Coworker } from '../../coworker.entity.js';
import { Business } from '../../../kernel/businesses/business.entity.js';

export const ROLE_PATTERN = /^[A-Za-z]+-(List|Read|Create|Edit|Update|Delete)$/i;

export class UserDto extends RecordDto {
  @EmailAddress({ required: true }) Email: string;

  @Text({ required: true }) FullName: string;

  /** Write-only. Required on create; on update absent or null keeps the stored one. */
  @Text({ max: 200 })
  @MinLength(8, { message: '$property must be at least 8 characters long.' })
  Password?: string | null;

  /** Defaults to true. */
  @Bool() Active?: boolean | null;
  /** Full unrestricted administrator. */
  @Bool() IsAdmin?: boolean | null;

  /** Role names such as Product-Create or CoworkerInvoicePaymentToken-Edit. */
  @ApiProperty({ type: String, isArray: true, required: false, example: ['Product-List', 'Product-Read'] })
  @IsOptional()
  @IsArray({ message: '$property must be a list of role names.' })
  @ArrayMaxSize(500, { message: '$property may hold at most 500 roles.' })
  @IsString({ each: true, message: '$property must be a list of role names.' })
  @Matches(ROLE_PATTERN, {
    each: true,
    message: '$property must hold role names such as Product-Create (List, Read, Create, Edit, Update or Delete).',
  })
  Roles?: string[] | null;

  /** The businesses a restricted administrator may act on. */
  @IdList({ references: () => Business }) Businesses?: number[] | null;

  @Bool() TwoFactorEnabled?: boolean | null;

  /** Write-only, base32 (RFC 6238), at least 128 bits. On update absent or null keeps the stored one. */
  @Text({ max: 128 })
  @Matches(/^[A-Z2-7]{26,}=*$/i, { message: '$property must be a base32 secret of at least 26 characters (128 bits).' })
  TwoFactorSecret?: string | null;

  /** Set for a customer's login. */
  @Reference(() => Coworker) CoworkerId?: number | null;
}
