-- A gangsim Parquet file's header, one row per line, in order: the
-- trace's SWF header lines (Version, Computer, MaxProcs...), the manifests
-- of the steps before it (InputGangsimTool, InputGangsimParam...), then
-- the manifest of the step that wrote it: tool, version, seed, parameters
-- and input digests (GangsimTool, GangsimParam, GangsimInput). Replace the
-- file name.
SELECT
    row_number() OVER () AS line,
    entry[1] AS key,   -- e.g. 'GangsimParam'
    entry[2] AS value  -- e.g. 'policy=easy'
FROM (
    SELECT unnest(json_transform(decode(value), '[["VARCHAR"]]')) AS entry
    FROM parquet_kv_metadata('outcomes.parquet')
    WHERE decode(key) = 'gangsim.header'
)
