"""Runs a notebook's code cells with python3, pandas and matplotlib, DuckDB
answered from results computed beforehand.

Usage: python3 cells.py NOTEBOOK.ipynb RESULTS.json [FIGURE.png]

RESULTS.json maps view names to their rows (a list of objects), as
conformance/duckdb/query.mjs prints them for the notebook's own SQL. A stub
module named duckdb stands in for the real one: its connection accepts every
statement the notebook executes (SET, CREATE VIEW) and answers
con.sql("SELECT * FROM VIEW").df() with that view's rows as a pandas
DataFrame; any other query is an error. The cells run in order in one
namespace, as a kernel runs them; what they print goes to standard output.
With FIGURE.png, the last matplotlib figure is saved there.
"""
import json
import re
import sys
import types

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

notebook_path, results_path = sys.argv[1], sys.argv[2]
figure_path = sys.argv[3] if len(sys.argv) > 3 else ""
with open(results_path) as f:
    results = json.load(f)


class Relation:
    def __init__(self, rows):
        self.rows = rows

    def df(self):
        return pd.DataFrame(self.rows)


class Connection:
    def execute(self, statement, *args):
        if not re.match(r"\s*(SET|CREATE VIEW)\b", statement):
            raise ValueError(f"the stub connection runs SET and CREATE VIEW only, not {statement[:60]!r}")
        return self

    def sql(self, query):
        m = re.fullmatch(r"\s*SELECT \* FROM (\w+)\s*", query)
        if not m or m.group(1) not in results:
            raise KeyError(f"no result for {query[:80]!r}: the notebook reads views as SELECT * FROM name")
        return Relation(results[m.group(1)])

    def register(self, name, frame):
        raise ValueError("the notebook registers no table: its grid comes from GRID_SQL")


duckdb = types.ModuleType("duckdb")
duckdb.connect = lambda *args, **kwargs: Connection()
sys.modules["duckdb"] = duckdb

with open(notebook_path) as f:
    notebook = json.load(f)
namespace = {"__name__": "__main__"}
for i, cell in enumerate(notebook["cells"]):
    if cell["cell_type"] != "code":
        continue
    source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
    code = compile(source, f"<cell {cell.get('id', i)}>", "exec")
    exec(code, namespace)
if figure_path and plt.get_fignums():
    plt.savefig(figure_path, dpi=80)
