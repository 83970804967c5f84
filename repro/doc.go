// Package repro holds gangsim's reproductions of the papers' tables and
// figures as data: an Item is one table or figure, a Row one of its cells
// with the paper's value beside gangsim's and the tolerance within which
// they must agree, a Claim a qualitative statement of the paper that
// gangsim's numbers must bear out.
//
// Items are written as results/<paper>/<item>.csv (WriteCSV): "# key: value"
// metadata lines (the item, its title and unit, and the manifest of the run
// that made it), a header line, then one line per cell: the cell's
// coordinates, the paper's value (empty where the paper gives only a
// figure), gangsim's value, the tolerance, and whether they agree.
// Report writes results/REPRODUCTION.md from a set of items.
//
// The hardware models' reproductions (package repro/hardware, built above
// hwmodel) and the experiments (package pipelines/analysis) both produce Items
// and save them with Write, which draws the item's figure with package
// plots.
package repro
