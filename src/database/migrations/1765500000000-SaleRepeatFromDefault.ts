import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A sale's RepeatFrom defaults to its sale date (docs/api.md §9.1): sales stored while it was left
 * null (one-off sales) get it, so every sale reads as one made now would. Nothing else reads it for a
 * one-off sale; a recurring sale had it already.
 */
export class SaleRepeatFromDefault1765500000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    const q = (name: string) => runner.connection.driver.escape(name);
    await runner.query(
      `UPDATE ${q('coworkerproduct')} SET ${q('RepeatFrom')} = ${q('SaleDate')} WHERE ${q('RepeatFrom')} IS NULL AND ${q('SaleDate')} IS NOT NULL`,
    );
  }

  async down(): Promise<void> {
    // Which sales were filled in is not known any more; the dates are right either way.
  }
}
