// Package calibration holds the rule every fitted parameter of gangsim's
// models obeys: it is fitted on the papers' static measurements (for
// Frachtenberg's thesis: Tables 6.1-6.6, Figs. 4.13-4.15 and 5.6, the
// micro-benchmarks of chapters 2 and 4) or the other papers' tables, and
// never on the thesis' dynamic results (section 6.4, Figs. 6.8-6.13),
// which the models predict. The tests of the policies' defaults and of the
// hardware presets check their sources with it.
package calibration

import "regexp"

// citation matches a citation of a table, figure, equation, section or
// page.
var citation = regexp.MustCompile(`Tables? \d|Figs?\. ?\d|Eq\. ?\d|\b\d+\.\d+\b|p\. \d+`)

// thesisStatic matches a citation of the thesis' static measurements.
var thesisStatic = regexp.MustCompile(`Tables? 6\.[1-6]|Figs?\. 4\.1[3-5]|Fig\. 5\.6|Tables? 4\.\d|\b[245]\.\d`)

// dynamic matches a citation of the thesis' dynamic results.
var dynamic = regexp.MustCompile(`\b6\.4\b|\b6\.4\.\d|Figs?\. 6\.(8|9|1[0-3])\b`)

// noFigure matches a source that mentions the dynamic section only to say
// it gives no figure.
var noFigure = regexp.MustCompile(`without a figure|gives no figure`)

// Cites reports whether source cites a table, figure, equation, section
// or page.
func Cites(source string) bool { return citation.MatchString(source) }

// CitesThesisStatic reports whether source cites one of the thesis' static
// measurements.
func CitesThesisStatic(source string) bool { return thesisStatic.MatchString(source) }

// FittedOnDynamic reports whether a fitted parameter's source cites the
// thesis' dynamic results as what it is fitted on (a mention that section
// 6.4 gives no figure is not a fit).
func FittedOnDynamic(source string) bool {
	rest := tables.ReplaceAllString(source, "") // Table 6.4 is static; section 6.4 is not
	return dynamic.MatchString(rest) && !noFigure.MatchString(source)
}

// tables matches citations of tables, whose numbers look like sections.
var tables = regexp.MustCompile(`Tables? \d+\.\d+(-\d+\.\d+)?('s)?`)
