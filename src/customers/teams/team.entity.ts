import { Entity } from 'typeorm';
import { BoolColumn, IntColumn, LongTextColumn, TextColumn } from '../../records/columns.js';
import { RecordEntity } from '../../records/record.entity.js';
import { Business } from '../../kernel/businesses/business.entity.js';

/**
 * A team of customers of one business (its members are kept in team_member). With a paying member and
 * `CreateSingleInvoiceForTeam`, the other members' items are billed on the paying member's invoice
 * (docs/billing.md, "Team invoices").
 */
@Entity('team')
export class Team extends RecordEntity {
  @IntColumn({ nullable: false, references: () => Business }) BusinessId: number;
  @TextColumn({ nullable: false, index: true }) Name: string;
  @LongTextColumn() Description: string | null;
  /**
   * One of the team's members (TeamsRules). No foreign key: a member cannot be deleted anyway (TeamMembers
   * names it), and SQLite would rebuild the table to add one (docs/billing.md, "Team invoices").
   */
  @IntColumn({ index: true }) PayingMemberId: number | null;
  @BoolColumn() CreateSingleInvoiceForTeam: boolean;
}
