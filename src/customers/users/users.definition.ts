import { defineRecord } from '../../records/record-definition.js';
import { UserDto } from './dto/user.dto.js';
import { User } from './user.entity.js';

export const users = defineRecord({
  name: 'User',
  path: 'sys/users',
  // Email and FullName are required on update too (docs/api.md §2.1).
  requiredOnUpdate: true,
  entity: User,
  dto: UserDto,
  business: { links: 'user_business', on: 'UserId', column: 'BusinessId' },
  hidden: ['EmailKey', 'PasswordHash', 'TwoFactorSecret', 'SecurityStamp', 'FailedLoginCount', 'LockedUntil', 'LastTotpStep'],
  lists: {
    /** The businesses a restricted administrator may act on. */
    Businesses: { table: 'user_business', on: 'UserId', column: 'BusinessId' },
  },
  toStringText: (u) => `${u.FullName} <${u.Email}>`,
});
