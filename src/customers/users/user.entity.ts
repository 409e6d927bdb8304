import { Entity, Index } from 'typeorm';
import { BoolColumn, DateTimeColumn, IdListColumn, IntColumn, TextColumn } from '../../records/columns.js';
import { RecordEntity } from '../../records/record.entity.js';
import { Coworker } from '../coworker.entity.js';

/** A login: a full administrator, a restricted administrator (roles, businesses) or a customer. */
@Entity('user')
@Index(['EmailKey'], { unique: true })
export class User extends RecordEntity {
  @TextColumn({ nullable: false }) Email: string;
  /** Lower-cased email, unique: emails compare case-insensitively. */
  @TextColumn({ nullable: false }) EmailKey: string;
  @TextColumn({ nullable: false, index: true }) FullName: string;
  @TextColumn({ nullable: false }) PasswordHash: string;
  @BoolColumn({ default: true }) Active: boolean;
  @BoolColumn() IsAdmin: boolean;
  /** Role names as given (`Product-Create`); compared case-insensitively. */
  @IdListColumn() Roles: string[] | null;
  @BoolColumn() TwoFactorEnabled: boolean;
  @TextColumn() TwoFactorSecret: string | null;
  /** A customer's login goes with the customer. */
  @IntColumn({ references: () => Coworker, onDelete: 'CASCADE' }) CoworkerId: number | null;
  /** Bumped whenever access must end: deactivation, new password, new roles or businesses. */
  @IntColumn({ nullable: false, default: 0 }) SecurityStamp: number;
  @IntColumn({ nullable: false, default: 0 }) FailedLoginCount: number;
  @DateTimeColumn() LockedUntil: Date | null;
  /** The RFC 6238 time step of the last one-time code accepted: a code is accepted once. */
  @IntColumn() LastTotpStep: number | null;
}
