// The baseline the service is measured against: a bare Fastify server with the same database driver
// doing the same queries behind the same credential checks, with nothing else (no Nest, no TypeORM,
// no envelopes). Run by bench.ts on the same core as the service.
import { createHash, createSecretKey, randomBytes, randomUUID } from 'node:crypto';
import formbody from '@fastify/formbody';
import Database from 'better-sqlite3';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import jwt from 'jsonwebtoken';
import mysql from 'mysql2/promise';
import { verifyPassword } from '../src/auth/passwords.js';
import { compileRecordPlan } from '../src/records/record-plan.js';
import { products } from '../src/billing/products/products.definition.js';
import { RecordRepository } from '../src/records/record.repository.js';
import { parseListQuery } from '../src/records/list-query.js';
import { parseDatabaseUrl } from '../src/config/configuration.js';
import { offlineDatabase } from '../src/sql-snapshots.js';

const secret = createSecretKey(Buffer.from(process.env.JWT_SECRET!, 'utf8'));
const basicHeader = process.env.BENCH_BASIC_HEADER!;
const target = parseDatabaseUrl(process.env.DATABASE_URL!);

type Query = (sql: string, parameters?: unknown[]) => Promise<any[]>;
type Run = (sql: string, parameters?: unknown[]) => Promise<number>;
let query: Query;
let run: Run;
/** Runs `work` in one transaction: inserts through `run`, reads through `read`, updates through `change` (rows changed). */
let transaction: <T>(work: (run: Run, read: Query, change: Run) => Promise<T>) => Promise<T>;
if (target.type === 'sqlite') {
  const db = new Database(target.database);
  db.pragma('journal_mode = WAL');
  // As the service opens it (src/database/data-source-options.ts): the foreign keys are checked. The
  // service leaves the references they guard to them, so a baseline without them would skip work the
  // service's answer depends on (it costs the bare create about 8 µs of SQLite's time).
  db.pragma('foreign_keys = ON');
  const statements = new Map<string, Database.Statement>();
  const prepared = (sql: string) => statements.get(sql) ?? statements.set(sql, db.prepare(sql)).get(sql)!;
  query = async (sql, parameters = []) => prepared(sql).all(...parameters);
  run = async (sql, parameters = []) => Number(prepared(sql).run(...parameters).lastInsertRowid);
  // One connection: transactions take turns (BEGIN … COMMIT around each one's statements).
  let turn: Promise<unknown> = Promise.resolve();
  transaction = (work) => {
    const next = turn.then(async () => {
      prepared('BEGIN').run();
      try {
        const result = await work(run, query, async (sql, parameters = []) => prepared(sql).run(...parameters).changes);
        prepared('COMMIT').run();
        return result;
      } catch (error) {
        prepared('ROLLBACK').run();
        throw error;
      }
    });
    turn = next.catch(() => undefined);
    return next;
  };
} else {
  const pool = mysql.createPool({ uri: target.url, connectionLimit: 10, dateStrings: ['DATETIME'], timezone: 'Z' });
  // Prepared statements, as the service runs them: the database parses and plans each once.
  query = async (sql, parameters = []) => (await pool.execute(sql, parameters as mysql.ExecuteValues))[0] as any[];
  run = async (sql, parameters = []) => ((await pool.execute(sql, parameters as mysql.ExecuteValues))[0] as { insertId: number }).insertId;
  transaction = async (work) => {
    const connection = await pool.getConnection();
    try {
      await connection.query('START TRANSACTION');
      const result = await work(
        async (sql, parameters = []) =>
          ((await connection.execute(sql, parameters as mysql.ExecuteValues))[0] as { insertId: number; affectedRows: number }).insertId,
        async (sql, parameters = []) => (await connection.execute(sql, parameters as mysql.ExecuteValues))[0] as any[],
        async (sql, parameters = []) =>
          ((await connection.execute(sql, parameters as mysql.ExecuteValues))[0] as { affectedRows: number }).affectedRows,
      );
      await connection.query('COMMIT');
      return result;
    } catch (error) {
      await connection.query('ROLLBACK');
      throw error;
    } finally {
      connection.release();
    }
  };
}
/**
 * What a create writes. The service writes the record and its change-log entry in one transaction
 * (docs/api.md §6), so the baseline does the same by default; BENCH_BARE_CREATE=row makes it insert the
 * row alone, to measure what the change log costs.
 */
const createWithHistory = process.env.BENCH_BARE_CREATE !== 'row';
const q = (name: string) => (target.type === 'sqlite' ? `"${name}"` : `\`${name}\``);

function authorized(request: FastifyRequest, reply: FastifyReply): boolean {
  const header = request.headers.authorization ?? '';
  if (header.startsWith('Bearer ')) {
    try {
      jwt.verify(header.slice(7), secret, { algorithms: ['HS256'] });
      return true;
    } catch {
      /* refused below */
    }
  } else if (header === basicHeader) return true;
  void reply.code(401).send({ Message: 'Authorization has been denied for this request.' });
  return false;
}

const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
await app.register(formbody);

/**
 * The reads' SQL. By default the service's own statements, built once from its compiled plan: the same
 * joins (business name, currency code) and id-list subquery (Tariffs) that the contract's answer needs.
 * BENCH_BARE_READS=star reads `SELECT *` of the product table alone, as the baseline did before: less
 * work than the answer needs, kept to compare with earlier figures.
 */
const reads = await (async () => {
  if (process.env.BENCH_BARE_READS === 'star') {
    return {
      byId: `SELECT * FROM ${q('product')} WHERE ${q('Id')} = ?`,
      page: `SELECT * FROM ${q('product')} WHERE ${q('BusinessId')} = ? ORDER BY ${q('Id')} LIMIT ? OFFSET ?`,
      count: `SELECT COUNT(*) AS n FROM ${q('product')} WHERE ${q('BusinessId')} = ?`,
    };
  }
  const db = await offlineDatabase(target.type === 'sqlite' ? 'sqlite' : 'mysql');
  const product = products;
  const plan = compileRecordPlan(product, db);
  const repository = new RecordRepository(db, plan, product);
  const sample = repository.pageStatements(parseListQuery({ Product_Business: '7', size: '25', page: '3' }, plan.listSchema), null);
  // The handlers below bind [business, size, offset] and [business]: the statements must take them so.
  if (JSON.stringify([sample.page.parameters, sample.count.parameters]) !== JSON.stringify([[7, 25, 50], [7]]))
    throw new Error("the service's list SQL changed its parameters");
  return { byId: repository.byIdStatement(1, null).sql, page: sample.page.sql, count: sample.count.sql };
})();

app.get<{ Params: { id: string } }>('/api/billing/products/:id', async (request, reply) => {
  if (!authorized(request, reply)) return;
  const [row] = await query(reads.byId, [Number(request.params.id)]);
  return row ?? reply.code(404).send('Not found');
});

app.get<{ Querystring: Record<string, string> }>('/api/billing/products', async (request, reply) => {
  if (!authorized(request, reply)) return;
  const business = Number(request.query.Product_Business);
  const size = Number(request.query.size ?? 25);
  const page = Number(request.query.page ?? 1);
  const records = await query(reads.page, [business, size, (page - 1) * size]);
  const [count] = await query(reads.count, [business]);
  return { Records: records, TotalItems: Number(count.n) };
});

const productSchema = {
  type: 'object',
  required: ['BusinessId', 'Name', 'SystemProductType', 'Description', 'DisplayOrder', 'Price', 'CurrencyId', 'AvailableAs'],
  properties: {
    BusinessId: { type: 'integer', minimum: 1 },
    Name: { type: 'string', maxLength: 255 },
    SystemProductType: { type: 'integer', enum: [0, 1, 2, 3, 4, 5, 99] },
    Description: { type: 'string', maxLength: 65535 },
    DisplayOrder: { type: 'integer' },
    Price: { type: 'number' },
    CurrencyId: { type: 'integer', minimum: 1 },
    AvailableAs: { type: 'integer', enum: [0, 1, 2, 3] },
  },
};
app.post<{ Body: Record<string, unknown> }>('/api/billing/products', { schema: { body: productSchema } }, async (request, reply) => {
  if (!authorized(request, reply)) return;
  const body = request.body;
  const now = new Date().toISOString().replace('T', ' ').replace('Z', '');
  const values: Record<string, unknown> = {
    UniqueId: randomUUID(),
    CreatedOn: now,
    UpdatedOn: now,
    IsNew: 1,
    BusinessId: body.BusinessId,
    Name: body.Name,
    SystemProductType: body.SystemProductType,
    Description: body.Description,
    DisplayOrder: body.DisplayOrder,
    Price: body.Price,
    CurrencyId: body.CurrencyId,
    AvailableAs: body.AvailableAs,
  };
  const columns = Object.keys(values);
  const insert = `INSERT INTO ${q('product')} (${columns.map(q).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
  if (!createWithHistory) return { Value: { Id: await run(insert, Object.values(values)) }, WasSuccessful: true };
  const changes = columns
    .filter((name) => !['UniqueId', 'CreatedOn', 'UpdatedOn', 'IsNew'].includes(name))
    .map((name) => ({ Field: name, From: null, To: values[name] }));
  const id = await transaction(async (runIn) => {
    const newId = await runIn(insert, Object.values(values));
    await runIn(
      `INSERT INTO ${q('change_log')} (${['Entity', 'RecordId', 'Action', 'On', 'By', 'RequestId', 'BusinessId', 'Changes'].map(q).join(', ')}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ['Product', newId, 'Create', now, 'bench@example.com', randomUUID(), body.BusinessId, JSON.stringify(changes)],
    );
    return newId;
  });
  return { Value: { Id: id }, WasSuccessful: true };
});

/**
 * A check-in that uses a pass (docs/presence.md, rule 3), with the reads the service makes to decide it: the
 * customer's business, an active contract, a pass used earlier that day, the valid pass that expires first;
 * then the pass's conditional UPDATE (the next one when another took it), the check-in and two change-log entries.
 */
const checkinSchema = {
  type: 'object',
  required: ['BusinessId', 'CoworkerId', 'FromTime'],
  properties: {
    BusinessId: { type: 'integer', minimum: 1 },
    CoworkerId: { type: 'integer', minimum: 1 },
    FromTime: { type: 'string' },
    ToTime: { type: 'string' },
  },
};
const utcParam = (date: Date) => date.toISOString().replace('T', ' ').replace('Z', '');
app.post<{ Body: Record<string, unknown> }>('/api/spaces/checkins', { schema: { body: checkinSchema } }, async (request, reply) => {
  if (!authorized(request, reply)) return;
  const body = request.body;
  const from = new Date(String(body.FromTime));
  const to = body.ToTime === undefined ? null : new Date(String(body.ToTime));
  if (Number.isNaN(from.getTime()) || (to && !(to >= from))) return reply.code(400).send({ Message: 'ToTime: before FromTime' });
  const now = utcParam(new Date());
  const day = Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate());
  const answer = await transaction(async (runIn, read, change) => {
    const [customer] = await read(`SELECT ${q('BusinessId')} AS b FROM ${q('coworker')} WHERE ${q('Id')} = ?`, [body.CoworkerId]);
    if (!customer || Number(customer.b) !== body.BusinessId) return null;
    await read(
      `SELECT ${q('Id')} FROM ${q('coworkercontract')} WHERE ${q('CoworkerId')} = ? AND ${q('StartDate')} <= ? AND (${q('CancellationDate')} IS NULL OR ${q('CancellationDate')} > ?) LIMIT 1`,
      [body.CoworkerId, utcParam(from), utcParam(from)],
    );
    await read(
      `SELECT ${q('CoworkerTimePassGuid')} FROM ${q('checkin')} WHERE ${q('CoworkerId')} = ? AND ${q('FromTime')} >= ? AND ${q('FromTime')} < ? AND ${q('BusinessId')} = ? AND ${q('CoworkerTimePassGuid')} IS NOT NULL LIMIT 1`,
      [body.CoworkerId, utcParam(new Date(day)), utcParam(new Date(day + 86_400_000)), body.BusinessId],
    );
    for (;;) {
      const passes = await read(
        `SELECT ${q('Id')} AS id, ${q('UniqueId')} AS uid FROM ${q('coworkertimepass')} WHERE ${q('CoworkerId')} = ? AND ${q('Used')} = 0 AND ${q('ExpireDate')} >= ? AND ${q('BusinessId')} = ? ORDER BY ${q('ExpireDate')}, ${q('Id')} LIMIT 5`,
        [body.CoworkerId, utcParam(from), body.BusinessId],
      );
      if (!passes.length) return null;
      for (const pass of passes) {
        const [before] = await read(`SELECT * FROM ${q('coworkertimepass')} WHERE ${q('Id')} = ?`, [pass.id]);
        const used = await change(
          `UPDATE ${q('coworkertimepass')} SET ${q('Used')} = 1, ${q('UsedDate')} = ?, ${q('Version')} = ${q('Version')} + 1, ${q('UpdatedOn')} = ? WHERE ${q('Id')} = ? AND ${q('Used')} = 0`,
          [utcParam(from), now, pass.id],
        );
        if (!before || used !== 1) continue;
        const values = {
          UniqueId: randomUUID(),
          CreatedOn: now,
          UpdatedOn: now,
          IsNew: 1,
          BusinessId: body.BusinessId,
          CoworkerId: body.CoworkerId,
          FromTime: utcParam(from),
          ToTime: to ? utcParam(to) : null,
          CoworkerTimePassGuid: pass.uid,
        };
        const columns = Object.keys(values);
        const id = await runIn(
          `INSERT INTO ${q('checkin')} (${columns.map(q).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
          Object.values(values),
        );
        const log = `INSERT INTO ${q('change_log')} (${['Entity', 'RecordId', 'Action', 'On', 'By', 'RequestId', 'BusinessId', 'Changes'].map(q).join(', ')}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`;
        await runIn(log, [
          'CoworkerTimePass',
          pass.id,
          'Update',
          now,
          'bench@example.com',
          randomUUID(),
          body.BusinessId,
          JSON.stringify([{ Field: 'Used', From: false, To: true }]),
        ]);
        await runIn(log, [
          'Checkin',
          id,
          'Create',
          now,
          'bench@example.com',
          randomUUID(),
          body.BusinessId,
          JSON.stringify(columns.map((name) => ({ Field: name, From: null, To: values[name as keyof typeof values] }))),
        ]);
        return id;
      }
    }
  });
  if (answer === null) return reply.code(400).send({ Message: 'CoworkerId: The customer has no valid pass for this business.' });
  return { Value: { Id: answer }, WasSuccessful: true };
});

app.post<{ Body: Record<string, string> }>('/api/token', async (request, reply) => {
  const { username, password } = request.body ?? {};
  const [user] = await query(`SELECT ${q('Id')} AS id, ${q('PasswordHash')} AS hash FROM ${q('user')} WHERE ${q('EmailKey')} = ?`, [
    String(username).toLowerCase(),
  ]);
  if (!user || !(await verifyPassword(String(password), String(user.hash)))) return reply.code(400).send({ error: 'invalid_grant' });
  const refresh = randomBytes(32).toString('base64url');
  const now = new Date();
  const utc = (d: Date) => d.toISOString().replace('T', ' ').replace('Z', '');
  await run(
    `INSERT INTO ${q('refresh_token')} (${q('UserId')}, ${q('ClientId')}, ${q('TokenHash')}, ${q('CreatedOn')}, ${q('ExpiresOn')}) VALUES (?, ?, ?, ?, ?)`,
    [
      user.id,
      `bare-${refresh.slice(0, 8)}`,
      createHash('sha256').update(refresh).digest('hex'),
      utc(now),
      utc(new Date(now.getTime() + 15 * 86_400_000)),
    ],
  );
  return {
    access_token: jwt.sign({ sub: String(user.id), ver: 0 }, secret, { algorithm: 'HS256', expiresIn: 3600 }),
    token_type: 'bearer',
    expires_in: 3600,
    refresh_token: refresh,
  };
});

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log('bare server listening');
// A clean exit on SIGTERM, so that a profile asked for with BENCH_BARE_NODE_FLAGS is written.
process.once('SIGTERM', () => process.exit(0));
