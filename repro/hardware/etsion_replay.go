package hardware

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gangsim/gangsim/hwmodel"
	"github.com/gangsim/gangsim/hwmodel/myrinet"
	"github.com/gangsim/gangsim/hwmodel/presets"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/repro"
	"github.com/gangsim/gangsim/workload/scenario"
)

// The mechanisms of ParPar's replays: E&F's buffer switching, copying the
// whole buffers at every switch (E&F 4.2, Fig. 7; the text does not say
// which copy the bandwidth runs used, and the full copy is the costlier),
// and the original FM's buffer division (E&F 2.2).
const (
	etsionSwitching = "switching-full"
	etsionDivision  = "division"
)

// etsionJobs returns the numbers of benchmark jobs replayed under a
// mechanism: 1, 2, 4 and 8 with buffer switching (the counts of
// myrinet.FigContexts); 1, 2, 4 and 6 with buffer division, where ParPar
// has credits for at most 6 contexts (C0 = floor(668 / (16 n^2)) is 0
// from 7 on, E&F 2.2) and a job that communicates cannot progress beyond.
func etsionJobs(mechanism string) []int {
	if mechanism == etsionDivision {
		return []int{1, 2, 4, 6}
	}
	return myrinet.FigContexts()
}

// EtsionFig6 reproduces E&F Fig. 6 through the simulator: the total
// bandwidth in MB/s (1e6 bytes per second) of jobs copies of the
// bandwidth benchmark (scenario fm-bandwidth on ParPar's 16 nodes),
// gang-scheduled with a 3 s quantum (E&F 4.1) and charged by the preset's
// model, with buffer switching (full copy) and with buffer division, by
// jobs and message size. As E&F measure it, the total is the average
// bandwidth of the jobs times their number; a job's bandwidth is the
// bytes one of its processes sends over the job's run time in the replay.
// The bytes are the benchmark's work: a process sends two messages of the
// size per iteration, and alone an iteration takes the 1 us of
// computation plus two one-way message times at one context (the model's
// Message), so a run of 600 s alone sends 600 s / that x 2 x size.
//
// The figure's values are not in the text; its claims are.
func EtsionFig6(p presets.Preset) (repro.Item, []model.Param, error) {
	it := repro.Item{
		Paper: "etsion",
		Name:  "fig-6",
		Title: "Fig. 6: total bandwidth by message size and jobs under gang scheduling, 3 s quantum: buffer switching (full copy) against the original buffer division (replays; figure values not in the text)",
		Unit:  "MB/s",
		Notes: "Replays of the fm-bandwidth scenario (a job on all 16 nodes that does nothing but send; 1 us of computation and two messages per iteration, 600 s alone) under gs with one row per job and a 3 s quantum, charged by parpar's model: the switching-full variant (an 85 ms switch, the paper's bound) or division (no switch cost, but each job's messages get the credits and send slots of n contexts). " +
			"A job's bandwidth is the bytes one of its processes sends over its run time; the total is their mean times the number of jobs (E&F 4.1). " +
			"Division is replayed up to 6 jobs: from 7 contexts ParPar has no credits (C0 = floor(668 / (16 n^2)) = 0), no message can be sent (E&F 4.1: none at 8), and a job that communicates never ends. " +
			"The job-level model charges each message its one-way latency (10 us) and the message's time at the stream bandwidth, so a small message's bandwidth here is lower than the streaming bandwidth of Fig. 5 (etsion/fig-5), and under division it falls less with contexts, the latency not growing with them.",
	}
	c, ok := p.Cluster.(myrinet.Cluster)
	if !ok {
		return it, nil, fmt.Errorf("preset %s is not a myrinet preset", p.Name())
	}
	costs, err := p.Costs(etsionSwitching)
	if err != nil {
		return it, nil, err
	}
	total, runs, err := etsionFig6Rows(p, c, costs, &it)
	if err != nil {
		return it, nil, err
	}
	it.Claims = etsionFig6Claims(total)
	params := []model.Param{
		{Name: "method", Value: "replays"},
		{Name: "scenario", Value: "fm-bandwidth"},
		{Name: "policy", Value: "gs:mpl=JOBS,quantum=3s"},
		{Name: "mechanisms", Value: etsionSwitching + "," + etsionDivision},
		{Name: "runs", Value: strconv.Itoa(runs)},
		{Name: "seed", Value: "0"},
	}
	return it, params, nil
}

// etsionKey names a replay of E&F Fig. 6: "mechanism/jobs/bytes".
func etsionKey(mech string, jobs int, bytes int64) string {
	return mech + "/" + strconv.Itoa(jobs) + "/" + strconv.FormatInt(bytes, 10)
}

// etsionFig6Rows replays every mechanism, number of jobs and message size
// of E&F Fig. 6 on the cluster c (whose one-context message times costs
// gives) and adds their rows to it; it returns the total bandwidths in
// bytes per second by etsionKey, and the number of replays.
func etsionFig6Rows(p presets.Preset, c myrinet.Cluster, costs hwmodel.Costs, it *repro.Item) (map[string]float64, int, error) {
	total := map[string]float64{}
	runs := 0
	for _, mech := range []string{etsionSwitching, etsionDivision} {
		for _, n := range etsionJobs(mech) {
			for _, size := range myrinet.MessageSizes() {
				r := replay{scenario: "fm-bandwidth", opts: scenario.Options{Tasks: n, Machines: c.Nodes, MessageBytes: size},
					policy: gangPolicy(n, myrinet.Fig6Quantum), preset: p, mechanism: mech}
				out, err := r.outcomes()
				if err != nil {
					return nil, 0, err
				}
				runs++
				lat, _ := costs.Message(size, 1)
				iteration := scenario.FMBandwidthGranularity + 2*lat
				bytes := scenario.FMBandwidthRuntime.Seconds() / iteration.Seconds() * 2 * float64(size)
				sum := 0.0
				for _, o := range out {
					sum += bytes / (o.End - o.Start).Seconds()
				}
				bw := sum / float64(len(out)) * float64(n)
				total[etsionKey(mech, n, size)] = bw
				it.Rows = append(it.Rows, repro.Row{
					Coords:  []repro.Coord{{Name: "mechanism", Value: mech}, coord64("jobs", int64(n)), coord64("bytes", size)},
					Gangsim: bw / 1e6,
				})
			}
		}
	}

	return total, runs, nil
}

// etsionFig6Claims checks E&F 4.1's claims on the totals of Fig. 6's
// replays.
func etsionFig6Claims(total map[string]float64) []repro.Claim {
	// Buffer switching: flat from 2 jobs on, a little below one job.
	spread, drop := 0.0, 0.0
	var worstSize int64
	for _, size := range myrinet.MessageSizes() {
		one := total[etsionKey(etsionSwitching, 1, size)]
		lo, hi := math.Inf(1), 0.0
		for _, n := range etsionJobs(etsionSwitching)[1:] {
			v := total[etsionKey(etsionSwitching, n, size)]
			lo, hi = min(lo, v), max(hi, v)
		}
		if s := hi/lo - 1; s > spread {
			spread, worstSize = s, size
		}
		drop = max(drop, 1-lo/one)
	}
	// Buffer division: collapsing with contexts, small messages first.
	collapse, smallFirst := true, true
	var fourth []string
	for _, size := range myrinet.MessageSizes() {
		share := total[etsionKey(etsionDivision, 4, size)] / total[etsionKey(etsionDivision, 1, size)]
		collapse = collapse && share < 0.5
		fourth = append(fourth, fmt.Sprintf("%d B %.2f", size, share))
	}
	var keeps []string
	for _, n := range etsionJobs(etsionDivision)[1:] {
		small := total[etsionKey(etsionDivision, n, 16)] / total[etsionKey(etsionDivision, 1, 16)]
		large := total[etsionKey(etsionDivision, n, 65536)] / total[etsionKey(etsionDivision, 1, 65536)]
		smallFirst = smallFirst && small < large
		keeps = append(keeps, fmt.Sprintf("%d jobs: %.2f against %.2f", n, small, large))
	}
	return []repro.Claim{
		{
			Text:  "with gang scheduling and buffer switching, the overall available bandwidth is independent of the number of applications running, and maintains a fairly constant level (E&F 4.1, Fig. 6), read as totals from 2 to 8 jobs within 1% of each other at every size, and within 3% of one job's",
			Holds: spread <= 0.01 && drop <= 0.03,
			Note: fmt.Sprintf("largest spread from 2 to 8 jobs %.2f%% (%d-byte messages); at most %.1f%% below one job, the 85 ms full-copy switch in every 3 s quantum",
				spread*100, worstSize, drop*100),
		},
		{
			Text:  "with the original FM buffer division the bandwidth decreases sharply when increasing the number of contexts (E&F 4.1, Fig. 5), read as 4 jobs' total below half of one job's at every size",
			Holds: collapse,
			Note:  "4 jobs' total as a share of one job's: " + strings.Join(fourth, ", "),
		},
		{
			Text:  "for small messages a full credit is used even if only part of each packet is used, so the system becomes unusable with even fewer contexts (E&F 4.1), read as 16-byte messages keeping a smaller share of one job's total than 64 KB messages under division, with 2 to 6 jobs",
			Holds: smallFirst,
			Note:  "share of one job's total, 16 B against 64 KB: " + strings.Join(keeps, "; "),
		},
	}
}
