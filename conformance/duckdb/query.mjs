// Runs SQL files with DuckDB against a directory of gangsim outputs and
// prints their rows as JSON. Usage: node query.mjs DIR [--set VAR=VALUE]...
// NAME=FILE.sql...
//
// Relative paths in the SQL (e.g. 'runs/*/*/outcomes.parquet') resolve
// against DIR: DuckDB's file_search_path is set to it, as the example
// notebook (examples/fig-6.12.ipynb) sets it to the run cache. The files run
// in order; each one's query becomes a view named NAME that the files after
// it can select from. The output is one JSON object, {NAME: [row, ...]},
// with every row an object of column name to value: DuckDB's integers as
// JSON numbers (as strings beyond 2^53), doubles as JSON numbers (NaN and
// infinities as null), other values as text. Exits 1 with DuckDB's message
// on stderr if a query fails. --set VAR=VALUE sets a DuckDB variable (SET
// VARIABLE, read with getvariable('VAR')) to the text VALUE before the
// queries run, as the notebook sets 'experiment'. Used by the notebook's
// tests (package internal/notebook).
import { readFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';

const [dir, ...rest] = process.argv.slice(2);
const vars = [];
const queries = [];
for (let i = 0; i < rest.length; i++) {
  if (rest[i] === '--set' && i + 1 < rest.length) {
    vars.push(rest[++i]);
  } else {
    queries.push(rest[i]);
  }
}
const named = /^[A-Za-z_][A-Za-z0-9_]*=/;
if (!dir || queries.length === 0 || queries.some((q) => !/^[A-Za-z_][A-Za-z0-9_]*=./.test(q)) || vars.some((v) => !named.test(v))) {
  console.error('usage: node query.mjs DIR [--set VAR=VALUE]... NAME=FILE.sql...');
  process.exit(2);
}
const quote = (s) => "'" + s.replaceAll("'", "''") + "'";
const ident = (s) => '"' + s.replaceAll('"', '""') + '"';

// plain turns one DuckDB value into a JSON value.
const plain = (v) => {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') {
    return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString();
  }
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  return String(v);
};

const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
const out = {};
try {
  await con.run(`SET file_search_path = ${quote(dir)}`);
  for (const v of vars) {
    const eq = v.indexOf('=');
    await con.run(`SET VARIABLE ${ident(v.slice(0, eq))} = ${quote(v.slice(eq + 1))}`);
  }
  for (const q of queries) {
    const eq = q.indexOf('=');
    const name = q.slice(0, eq);
    const file = q.slice(eq + 1);
    const sql = readFileSync(file, 'utf8').trim().replace(/;\s*$/, '');
    try {
      await con.run(`CREATE VIEW ${ident(name)} AS ${sql}`);
      const res = await con.runAndReadAll(`SELECT * FROM ${ident(name)}`);
      const cols = res.columnNames();
      out[name] = res.getRows().map((r) => Object.fromEntries(cols.map((c, i) => [c, plain(r[i])])));
    } catch (e) {
      throw new Error(`${name} (${file}): ${e.message}`);
    }
  }
} catch (e) {
  console.error(`query.mjs: ${e.message}`);
  process.exit(1);
}
console.log(JSON.stringify(out));
