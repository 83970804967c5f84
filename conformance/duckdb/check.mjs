// Opens Parquet files with DuckDB and compares what DuckDB sees with what
// gangsim documents. Usage: node check.mjs EXPECTATIONS.json
//
// EXPECTATIONS.json is a list of {file, rows, columns: [{name, type,
// non_null}], kv: {key: value}} written by columnar's
// TestDuckDBConformance: the documented schema of each table kind, the row
// count, each column's count of non-null values, and key-value metadata
// that must be present. Prints one line per mismatch and exits 1 if any.
import { readFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';

const specs = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
const quote = (s) => "'" + s.replaceAll("'", "''") + "'";
const ident = (s) => '"' + s.replaceAll('"', '""') + '"';
let failures = 0;
const fail = (file, msg) => { failures++; console.log(`${file}: ${msg}`); };

for (const spec of specs) {
  const src = `read_parquet(${quote(spec.file)})`;
  const desc = (await con.runAndReadAll(`DESCRIBE SELECT * FROM ${src}`)).getRowObjects();
  const got = desc.map((r) => `${r.column_name} ${r.column_type}`).join(', ');
  const want = spec.columns.map((c) => `${c.name} ${c.type}`).join(', ');
  if (got !== want) fail(spec.file, `columns\n  got  ${got}\n  want ${want}`);

  const counts = spec.columns.map((c) => `count(${ident(c.name)})`).join(', ');
  const row = (await con.runAndReadAll(`SELECT count(*), ${counts} FROM ${src}`)).getRows()[0].map(Number);
  if (row[0] !== spec.rows) fail(spec.file, `${row[0]} rows, want ${spec.rows}`);
  spec.columns.forEach((c, i) => {
    if (row[i + 1] !== c.non_null) fail(spec.file, `column ${c.name}: ${row[i + 1]} non-null values, want ${c.non_null}`);
  });

  const kv = new Map();
  const meta = await con.runAndReadAll(
    `SELECT decode(key) AS k, decode(value) AS v FROM parquet_kv_metadata(${quote(spec.file)})`);
  for (const r of meta.getRowObjects()) kv.set(r.k, r.v);
  for (const [k, v] of Object.entries(spec.kv)) {
    if (kv.get(k) !== v) fail(spec.file, `metadata ${k} = ${JSON.stringify(kv.get(k))}, want ${JSON.stringify(v)}`);
  }
  console.log(`${spec.file}: ${spec.rows} rows, ${spec.columns.length} columns checked`);
}
process.exit(failures ? 1 : 0);
