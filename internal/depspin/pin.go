package depspin

import (
	_ "github.com/apache/arrow/go/v15/arrow"
	_ "github.com/apache/arrow/go/v15/arrow/array"
	_ "github.com/apache/arrow/go/v15/arrow/ipc"
	_ "github.com/apache/arrow/go/v15/arrow/memory"
	_ "github.com/apache/arrow/go/v15/parquet/file"
	_ "github.com/apache/arrow/go/v15/parquet/pqarrow"
	_ "github.com/klauspost/compress/gzip"
	_ "github.com/parquet-go/parquet-go"
	_ "github.com/spf13/pflag"
	_ "golang.org/x/exp/slices"
	_ "gonum.org/v1/gonum/stat"
	_ "gonum.org/v1/gonum/stat/distuv"
	_ "gonum.org/v1/plot"
	_ "gonum.org/v1/plot/plotter"
	_ "gonum.org/v1/plot/vg"
	_ "gonum.org/v1/plot/vg/draw"
)
