import { Injectable, Logger, UnauthorizedException, type OnApplicationBootstrap } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AuthService } from '../../auth/auth.service.js';
import { passwordHashFor, prehashPassword } from '../../auth/passwords.js';
import { RefreshTokensService } from '../../auth/refresh-tokens.service.js';
import { isUniqueViolation } from '../../persistence/database-errors.js';
import { RecordValidationException } from '../../records/errors.js';
import { emailKey } from '../../records/validation/fields.js';
import type { Principal } from '../../platform/principal.js';
import type { WireRecord } from '../../records/record-definition.js';
import type { DeleteContext, RecordRules, SaveContext, SaveDecision } from '../../records/record-rules.js';
import { RecordTypes } from '../../records/record-types.js';
import type { RecordService } from '../../records/record.service.js';
import type { ChangeAction } from '../../records/field-changes.js';
import type { AppConfig } from '../../config/configuration.js';
import { UserDto } from './dto/user.dto.js';
import { validateBody } from '../../records/validation/validation.js';
import { mayManage, withinBusinesses, type UserPowers } from '../../auth/user-authority.js';
import { users } from './users.definition.js';
import { UsersRepository } from './users.repository.js';
import type { Tx } from '../../persistence/tx.js';

const sameSet = (a: readonly unknown[] | null | undefined, b: readonly unknown[] | null | undefined) => {
  const left = new Set((a ?? []).map((v) => String(v).toLowerCase()));
  const right = new Set((b ?? []).map((v) => String(v).toLowerCase()));
  return left.size === right.size && [...left].every((v) => right.has(v));
};

const storedPowers = (user: WireRecord): UserPowers => ({
  isAdmin: Boolean(user.IsAdmin),
  roles: (user.Roles as string[] | null) ?? [],
  businessIds: (user.Businesses as number[] | null) ?? [],
});

/** Users: hashed passwords, unique emails, and access that ends when it should (docs/api.md §2.1, §2.2). */
@Injectable()
export class UsersRules implements RecordRules<UserDto>, OnApplicationBootstrap {
  private readonly logger = new Logger(UsersRules.name);

  constructor(
    private readonly types: RecordTypes,
    private readonly auth: AuthService,
    private readonly refreshTokens: RefreshTokensService,
    private readonly config: ConfigService<AppConfig, true>,
    private readonly usersRepository: UsersRepository,
  ) {}

  /** The users' RecordService, for the logins written besides a request's own. */
  private get records(): RecordService {
    return this.types.records(users);
  }

  /** The bootstrap administrator (docs/api.md §2.6): created once, when no user has that email. */
  async onApplicationBootstrap(): Promise<void> {
    const email = this.config.get('BOOTSTRAP_ADMIN_EMAIL', { infer: true });
    const password = this.config.get('BOOTSTRAP_ADMIN_PASSWORD', { infer: true });
    if (!email || !password) return;
    if (await this.usersRepository.emailTaken(email, null)) return;
    try {
      await this.records.create(
        await validateBody(UserDto, { Email: email, FullName: 'Administrator', Password: password, IsAdmin: true, Active: true }),
      );
      this.logger.log(`Bootstrap administrator ${email} created`);
    } catch (error) {
      // Another instance created it at the same moment.
      if (!(error instanceof RecordValidationException)) throw error;
    }
  }

  /** Creates the login of a customer (Coworker CreateUser + Password), inside the coworker's transaction. */
  async createCustomerLogin(
    tx: Tx,
    coworker: { id: number; email: string; fullName: string; password: string; body: object },
    actor?: Principal,
  ): Promise<void> {
    await this.assertEmailFree(coworker.email, null, tx);
    const values = {
      Email: coworker.email.trim(),
      EmailKey: emailKey(coworker.email),
      FullName: coworker.fullName,
      PasswordHash: await passwordHashFor(coworker.body, coworker.password),
      Active: true,
      CoworkerId: coworker.id,
    };
    // Nobody in UpdatedBy: the login is the customer's own.
    await this.records.createRecorded(tx, actor, values, {
      request: { Password: coworker.password },
      readBack: true,
      stampedBy: null,
    });
  }

  /** The password's hash is made before the write's transaction begins. */
  async prepareSave(dto: UserDto): Promise<void> {
    if (dto.Password) await prehashPassword(dto, dto.Password);
  }

  /** The values to write: the body's, with the email key, the password hash and a new stamp when access ends. */
  async beforeSave(context: SaveContext<UserDto>): Promise<SaveDecision> {
    const { dto, existing } = context;
    const values = { ...context.values };
    this.assertGrantable(dto, existing, context.actor);
    if (dto.CoworkerId !== undefined && dto.CoworkerId !== null && (!existing || dto.CoworkerId !== existing.CoworkerId)) {
      await this.assertCustomerFree(dto.CoworkerId, existing ? Number(existing.Id) : null, context);
    }
    values.EmailKey = emailKey(dto.Email);
    await this.assertEmailFree(dto.Email, existing ? Number(existing.Id) : null, context.tx);
    if (!existing && !dto.Password) throw RecordValidationException.field('Password', 'Password is required.', dto.Password ?? null);
    if (dto.Password) values.PasswordHash = await passwordHashFor(dto, dto.Password);
    // Absent or null keeps the stored secret (docs/api.md §2.1).
    if (dto.TwoFactorSecret === null || dto.TwoFactorSecret === undefined) delete values.TwoFactorSecret;
    if (
      dto.TwoFactorEnabled &&
      !dto.TwoFactorSecret &&
      !(existing && (await this.usersRepository.hasTwoFactorSecret(Number(existing.Id), context.tx)))
    ) {
      throw RecordValidationException.field('TwoFactorSecret', 'TwoFactorSecret is required to turn two-factor authentication on.', null);
    }
    if (existing && this.endsAccess(dto, existing)) values.SecurityStamp = this.usersRepository.bumpedSecurityStamp;
    return { values };
  }

  async afterSave(id: number, saved: SaveContext<UserDto>): Promise<void> {
    // Businesses are written by the machinery (a `lists` join table); here only what access depends on.
    if (saved.values.SecurityStamp) await this.refreshTokens.revokeAll(id, undefined, saved.tx);
    this.auth.forget(id);
  }

  /** A restricted administrator deletes only users it may manage. */
  async beforeDelete(record: WireRecord, { actor }: DeleteContext): Promise<void> {
    if (actor && actor.businessIds !== null && !mayManage(actor, storedPowers(record))) throw new UnauthorizedException();
    this.auth.forget(Number(record.Id));
  }

  /** A user's businesses are checked with its roles, against the stored user too (assertGrantable). */
  async authorize(): Promise<void> {}

  /** A unique-index race on the email of a create is the same 400 as the check before it. */
  mapError(error: unknown, operation: ChangeAction, dto?: UserDto): unknown {
    if (operation === 'Create' && isUniqueViolation(error))
      return RecordValidationException.field('Email', 'A user with this email already exists.', dto?.Email ?? null);
    return error;
  }

  /**
   * Nobody gives what they do not have: a restricted administrator touches only users it may manage
   * (the stored one on update), and leaves them with no admin rights, roles it holds and businesses
   * among its own (at least one); so it cannot raise its own either.
   */
  private assertGrantable(dto: UserDto, existing: WireRecord | null, actor: Principal | undefined): void {
    if (!actor || actor.businessIds === null) return;
    if (existing && !mayManage(actor, storedPowers(existing))) throw new UnauthorizedException();
    const after: UserPowers = {
      isAdmin: dto.IsAdmin ?? Boolean(existing?.IsAdmin),
      roles: dto.Roles !== undefined ? (dto.Roles ?? []) : ((existing?.Roles as string[] | undefined) ?? []),
      businessIds: dto.Businesses !== undefined ? (dto.Businesses ?? []) : ((existing?.Businesses as number[] | undefined) ?? []),
    };
    if (!mayManage(actor, after)) throw new UnauthorizedException();
  }

  /**
   * A login may name only a customer of one of the actor's businesses, and a customer has one login.
   * The customer's row is locked first, so two logins for it made at once take turns.
   */
  private async assertCustomerFree(coworkerId: number, exceptUserId: number | null, { tx, actor }: SaveContext<UserDto>): Promise<void> {
    const business = await this.usersRepository.lockCustomerBusiness(coworkerId, tx);
    if (business === null) throw RecordValidationException.field('CoworkerId', `Coworker ${coworkerId} does not exist`, coworkerId);
    if (actor && !withinBusinesses(actor, [business])) throw new UnauthorizedException();
    if (await this.usersRepository.customerHasLogin(coworkerId, tx, { exceptUserId, lock: true })) {
      throw RecordValidationException.field('CoworkerId', `Coworker ${coworkerId} already has a login.`, coworkerId);
    }
  }

  /** Whether the customer has a login, read inside `tx`'s transaction. */
  hasLogin(coworkerId: number, tx: Tx): Promise<boolean> {
    return this.usersRepository.customerHasLogin(coworkerId, tx);
  }

  /** Deactivation, a new password, or new roles, businesses or admin rights end existing access. */
  private endsAccess(dto: UserDto, existing: WireRecord): boolean {
    return (
      Boolean(dto.Password) ||
      (dto.Active === false && existing.Active === true) ||
      (dto.IsAdmin !== undefined && Boolean(dto.IsAdmin) !== existing.IsAdmin) ||
      (dto.Roles !== undefined && !sameSet(dto.Roles, existing.Roles as string[])) ||
      (dto.Businesses !== undefined && !sameSet(dto.Businesses, existing.Businesses as number[])) ||
      (dto.CoworkerId !== undefined && (dto.CoworkerId ?? null) !== existing.CoworkerId)
    );
  }

  private async assertEmailFree(email: string, exceptId: number | null, tx: Tx): Promise<void> {
    if (await this.usersRepository.emailTaken(email, exceptId, tx))
      throw RecordValidationException.field('Email', 'A user with this email already exists.', email);
  }
}
