package policies

// Origin says where the default of a configuration field comes from.
type Origin struct {
	// Kind is one of:
	//   - "paper": a value or rule a paper states;
	//   - "fitted": fitted on the papers' static measurements (thesis
	//     Tables 6.1-6.6, Figs. 4.13-4.15 and 5.6, chapters 2 and 4's
	//     micro-benchmarks), never on the dynamic results of thesis 6.4,
	//     which are predictions;
	//   - "hardware": taken from the hardware preset (its own sources say
	//     which of its numbers are measured, fitted or assumed);
	//   - "assumed": no paper gives it;
	//   - "design": a modelling choice, not a number (what a policy is when
	//     the parameter is not given).
	Kind string
	// Source names the paper, section, table or figure, or says why.
	Source string
}

// Provenance lists where the default of every field of the gang-scheduled
// policies' configurations (GangConfig, Storm, CoschedConfig) comes from;
// TestProvenance fails for a field without an entry, and for a fitted one
// whose source is not a static measurement.
var Provenance = map[string]Origin{
	"GangConfig.MPL":                  {"paper", "thesis 6.4.2: MPL 6, bounded as Moreira et al. found an MPL of 5 as good as infinite"},
	"GangConfig.Quantum":              {"paper", "thesis 6.4.3: 100 ms, the median's minimum on Crescendo"},
	"GangConfig.Alloc":                {"design", "first fit unless alloc=dhc (STORM's buddy allocation, thesis 4.2.1)"},
	"GangConfig.Alternate":            {"design", "off unless alternate=true (thesis 6.2, footnote 1)"},
	"GangConfig.Backfill":             {"design", "none unless backfill=easy (the thesis' dynamic runs, 6.4.1)"},
	"GangConfig.Storm":                {"design", "STORM's mechanics, on with a STORM cluster's hardware (Storm)"},
	"Storm.Tick":                      {"paper", "thesis 4.2.1 (the machine manager acts at regular ticks) and 4.2.2, step 7 (terminations inspected before the next strobe)"},
	"Storm.Launch":                    {"paper", "thesis 4.3.1.1: the binary transfer and the execution each take at least one timeslice; T_exec from Eq. 4.7 (the hardware preset)"},
	"Storm.Keep":                      {"paper", "thesis 4.2.1, Heartbeat/strobe: a process is descheduled only if another occupies the next time slot"},
	"Storm.BinaryBytes":               {"assumed", "the synthetic application's binary size is not given; any below about 13 MB transfers within one 100 ms heartbeat at Eq. 4.8's 131 MB/s"},
	"CoschedConfig.GangConfig":        {"design", "the gang scheduler's matrix, queue and round robin"},
	"CoschedConfig.Kind":              {"design", "the policy's name"},
	"CoschedConfig.LocalSwitch":       {"hardware", "the preset's local_switch_us; bcs and pbcs: its bcs_switch_us (fitted on Table 6.1's BCS cells)"},
	"CoschedConfig.GangLoss":          {"hardware", "bcs and pbcs: the preset's bcs_gang_switch_us (fitted on Table 6.5's balanced BCS cells); 0 otherwise"},
	"CoschedConfig.Wakeup":            {"hardware", "the preset's wakeup_us"},
	"CoschedConfig.Spin":              {"hardware", "sb under sched=linux: the preset's sb_spin_us (fitted on Tables 6.1-6.4's SB cells); otherwise twice the local switch, the competitive spin of implicit coscheduling (Arpaci-Dusseau, thesis reference [2])"},
	"CoschedConfig.Sched":             {"design", "sb: linux, the Linux 2.4 scheduler of the thesis' clusters (Table 1.1: Red Hat Linux 7.x); fcs: boost, its node managers' own decisions"},
	"CoschedConfig.HZ":                {"hardware", "the preset's kernel_hz (the architecture's Linux 2.4 HZ)"},
	"CoschedConfig.SliceTicks":        {"hardware", "the preset's kernel_slice_ticks (Linux 2.4's NICE_TO_TICKS(0))"},
	"CoschedConfig.ProcChangePenalty": {"hardware", "the preset's kernel_proc_change_penalty (Linux 2.4's PROC_CHANGE_PENALTY)"},
	"CoschedConfig.MicroSlice":        {"hardware", "the preset's bcs_timeslice_us (thesis 6.3.2.1: 375 us = 1.5 micro-timeslices)"},
	"CoschedConfig.MicroOverhead":     {"hardware", "the preset's bcs_overhead_us (thesis 5.3.4)"},
	"CoschedConfig.DCGranularity":     {"fitted", "quantum / 5: between the 3 ms CS and 6 ms DC processes of thesis Table 6.2 at its 25 ms timeslice (6.3.2.2)"},
	"CoschedConfig.FWaitShare":        {"assumed", "0.3: the thesis gives no threshold (6.2.1 refers to [39])"},
	"CoschedConfig.Probation":         {"fitted", "4 s: the least sum of squared relative errors over the 15 FCS cells of thesis Tables 6.2-6.4, probations of 0 to 20 s in whole seconds (6.4.4 says 'its first few seconds of running' without a figure)"},
	"CoschedConfig.NoSkip":            {"design", "false: jobs running undisturbed are moved forward by periods, whose outcomes equal simulating every iteration (tests set it to compare)"},
}
