import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { DataSource, Entity } from 'typeorm';
import { BoolColumn, IntColumn, TextColumn } from './columns.js';
import { Database } from '../persistence/database.js';
import type { RecordDefinition } from './record-definition.js';
import { compileRecordPlan } from './record-plan.js';
import { RecordEntity } from './record.entity.js';
import { Bool, IdList, Reference, Text } from './validation/fields.js';
import { RecordDto } from './validation/record.dto.js';

// Two record types of the spec's own, so the plan's rules are seen without the service's entities.
@Entity('plan_owner')
class PlanOwner extends RecordEntity {
  @IntColumn({ nullable: false }) BusinessId: number;
  @TextColumn() Name: string | null;
}

@Entity('plan_item')
class PlanItem extends RecordEntity {
  @IntColumn({ nullable: false, references: () => PlanOwner }) OwnerId: number;
  @TextColumn() Title: string | null;
  @TextColumn() Secret: string | null;
  @BoolColumn() Active: boolean;
  @TextColumn() ServerOnly: string | null;
}

class PlanItemDto extends RecordDto {
  @Reference(() => PlanOwner, { required: true }) OwnerId: number;
  @Text() Title?: string | null;
  @Text() Secret?: string | null;
  @Bool() Active?: boolean | null;
  @IdList({ references: () => PlanOwner }) Tags?: number[] | null;
}

const definition: RecordDefinition<PlanItem> = {
  name: 'PlanItem',
  path: 'test/plan-items',
  entity: PlanItem,
  dto: PlanItemDto,
  business: { via: () => PlanOwner, on: 'OwnerId' },
  hidden: ['Secret'],
  reads: {
    OwnerName: { from: () => PlanOwner, on: 'OwnerId', column: 'Name' },
    ParentId: { kind: 'int', sql: (q) => `r.${q.id('OwnerId')} + 0` },
  },
  lists: { Tags: { table: 'plan_item_tag', on: 'ItemId', column: 'TagId' } },
  toStringText: (item) => String(item.Title),
};

async function databaseOf(type: 'better-sqlite3' | 'mysql'): Promise<Database> {
  const dataSource = new DataSource({ type, database: ':memory:', entities: [PlanOwner, PlanItem] });
  // The metadata alone: the plan compiler needs no connection.
  await (dataSource as unknown as { buildMetadatas(): Promise<void> }).buildMetadatas();
  return new Database(dataSource);
}

describe('compileRecordPlan', () => {
  let sqlite: Database;
  let mysql: Database;
  before(async () => {
    sqlite = await databaseOf('better-sqlite3');
    mysql = await databaseOf('mysql');
  });

  it('reads Id first, leaves out hidden columns and the version, then the read-only fields and lists', () => {
    const names = compileRecordPlan(definition, sqlite).outputs.map(([name]) => name);
    assert.equal(names[0], 'Id');
    assert.ok(!names.includes('Secret') && !names.includes('Version'));
    assert.deepEqual(names.slice(-3), ['OwnerName', 'ParentId', 'Tags']);
  });

  it('lets a body write only the columns its DTO declares, never the common ones', () => {
    const plan = compileRecordPlan(definition, sqlite);
    assert.deepEqual([...plan.writable.keys()].sort(), ['Active', 'OwnerId', 'Secret', 'SystemId', 'Title']);
    assert.equal(plan.writable.get('Active'), 'bool');
    assert.ok(plan.columns.has('ServerOnly') && !plan.writable.has('ServerOnly'));
  });

  it('joins a referenced table once per foreign key, and counts without the joins', () => {
    const plan = compileRecordPlan(definition, sqlite);
    assert.equal(plan.table, '"plan_item" r');
    assert.equal(plan.from, '"plan_item" r LEFT JOIN "plan_owner" j0 ON j0."Id" = r."OwnerId"');
    assert.deepEqual([...plan.joinedFields], ['OwnerName']);
    assert.equal(plan.expressions.get('OwnerName'), 'j0."Name"');
  });

  it('ends every read with the version and reads by Id with bound parameters', () => {
    const plan = compileRecordPlan(definition, sqlite);
    assert.match(plan.selectList, /, r\."Version" AS "Version"$/);
    assert.equal(plan.selectById, `SELECT ${plan.selectList} FROM ${plan.from} WHERE r."Id" = ?`);
  });

  it('reads a join-table list as a JSON array in the dialect of the database', () => {
    assert.match(
      compileRecordPlan(definition, sqlite).expressions.get('Tags')!,
      /^\(SELECT json_group_array\(l\."TagId"\) FROM "plan_item_tag" l WHERE l\."ItemId" = r\."Id"\)$/,
    );
    assert.match(
      compileRecordPlan(definition, mysql).expressions.get('Tags')!,
      /^\(SELECT JSON_ARRAYAGG\(l\.`TagId`\) FROM `plan_item_tag` l/,
    );
  });

  it('filters an id by its navigation name, a column or a computed one', () => {
    const { listSchema } = compileRecordPlan(definition, sqlite);
    assert.equal(listSchema.entityName, 'PlanItem');
    assert.deepEqual(listSchema.navigations, { Owner: 'OwnerId', Parent: 'ParentId' });
  });

  it('scopes a record by its own column, through its parent, or through a link table', () => {
    assert.equal(
      compileRecordPlan(definition, sqlite).scopeTemplate,
      '(SELECT s."BusinessId" FROM "plan_owner" s WHERE s."Id" = r."OwnerId") IN ({ids})',
    );
    assert.equal(compileRecordPlan({ ...definition, business: { column: 'OwnerId' } }, sqlite).scopeTemplate, 'r."OwnerId" IN ({ids})');
    assert.equal(
      compileRecordPlan({ ...definition, business: { links: 'item_business', on: 'ItemId', column: 'BusinessId' } }, mysql).scopeTemplate,
      'EXISTS (SELECT 1 FROM `item_business` s WHERE s.`ItemId` = r.`Id` AND s.`BusinessId` IN ({ids}))',
    );
    assert.equal(compileRecordPlan({ ...definition, business: undefined }, sqlite).scopeTemplate, null);
  });

  it('knows which references a foreign key enforces', () => {
    const plan = compileRecordPlan(definition, sqlite);
    assert.deepEqual([...plan.enforcedReferences], [['OwnerId', PlanOwner]]);
  });
});
