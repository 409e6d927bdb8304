import { Entity, Index } from 'typeorm';
import { BoolColumn, DateTimeColumn, IntColumn, TextColumn } from '../../records/columns.js';
import { RecordEntity } from '../../records/record.entity.js';
import { Business } from '../../kernel/businesses/business.entity.js';
import { Coworker } from '../../customers/coworker.entity.js';

/**
 * A customer's visit of a business (docs/presence.md), open while ToTime is null. CoworkerTimePassGuid
 * is the UniqueId of the pass it used (null: in on a contract), set by the check-in rules only.
 */
@Entity('checkin')
// A customer's check-ins by day: the pass of an earlier check-in of the same day is used again.
@Index(['CoworkerId', 'FromTime'])
// At most one open check-in per customer and business, whatever instance or node writes it.
@Index('UQ_checkin_OpenKey', ['OpenKey'], { unique: true })
export class Checkin extends RecordEntity {
  @IntColumn({ nullable: false, references: () => Business }) BusinessId: number;
  @IntColumn({ nullable: false, references: () => Coworker }) CoworkerId: number;
  @DateTimeColumn({ nullable: false, index: true }) FromTime: Date;
  @DateTimeColumn() ToTime: Date | null;
  @TextColumn() Source: string | null;
  @BoolColumn() AutoCheckout: boolean;
  @BoolColumn() CountsTowardsPlanLimits: boolean;
  @TextColumn({ length: 36, index: true }) CoworkerTimePassGuid: string | null;
  /** `<CoworkerId>/<BusinessId>` while open, null once checked out (never on the wire). */
  @TextColumn({ length: 32 }) OpenKey: string | null;
}
