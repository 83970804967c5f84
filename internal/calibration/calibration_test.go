package calibration

import "testing"

func TestRules(t *testing.T) {
	if !FittedOnDynamic("fitted to Fig. 6.12's mean response") || !FittedOnDynamic("thesis 6.4.4's saturation points") {
		t.Error("a fit on the dynamic results passes")
	}
	if FittedOnDynamic("thesis Tables 6.2-6.4 (6.4.4 says 'a few seconds' without a figure)") {
		t.Error("a mention of 6.4 without a fit fails")
	}
	if FittedOnDynamic("the 19 SB cells of Tables 6.1-6.4; Table 6.4's job 1") {
		t.Error("Table 6.4, a static measurement, counts as the dynamic section")
	}
	if CitesThesisStatic("chosen to look right") || Cites("chosen to look right") {
		t.Error("a source without a citation passes")
	}
	if !CitesThesisStatic("thesis Table 6.6's SAGE pair") || !Cites("Hori et al. 1996, Tables 4 and 5") {
		t.Error("a static citation fails")
	}
}
