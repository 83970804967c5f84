// Package examples holds notebooks that show how to use gangsim's outputs
// outside gangsim, and the tests that keep them working. It has no Go API:
// fig-6.12.ipynb loads a sweep's outcomes.parquet files with DuckDB and
// pandas and redraws Frachtenberg's Fig. 6.12; notebook_test.go runs the
// notebook's SQL with DuckDB on runs it makes with package pipelines, and
// the whole notebook when Python has duckdb, pandas, matplotlib and
// nbconvert. README.md says how to run it.
package examples
