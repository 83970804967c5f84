package swf

import (
	"errors"
	"io"
	"os"
	"reflect"
	"testing"

	"github.com/gangsim/gangsim/internal/sharedtraces"
	"github.com/gangsim/gangsim/model"
)

// traceFacts are facts about a shared trace, from the shared traces'
// README (and counted independently with awk).
type traceFacts struct {
	jobs         int
	maxProcs     int
	maxNodes     int
	maxNodesText string // the full MaxNodes value, when it has trailing text
	status       map[model.Status]int
	noStatus     int // status -1
	zeroRuntime  int // run time exactly 0
	noRuntime    int // run time -1
	noEstimate   int // field 9 is -1
	noReqProcs   int // field 8 is -1
	noWait       int // field 3 is -1
	maxAlloc     int
	allocs       map[int]int // histogram of field 5 (-1 as key -1), when checked
}

var sharedFacts = map[string]traceFacts{
	"NASA-iPSC-1993-3.1-cln": {jobs: 18239, maxProcs: 128, maxNodes: 128, noStatus: 18239, zeroRuntime: 173,
		noEstimate: 18239, noReqProcs: 18239, noWait: 18239, maxAlloc: 128},
	"KTH-SP2-1996-2.1-cln": {jobs: 28476, maxProcs: 100, maxNodes: 100,
		status: map[model.Status]int{1: 20530, 0: 7946}, zeroRuntime: 8, noReqProcs: 1, maxAlloc: 100},
	"SDSC-Par-1996-3.1-cln": {jobs: 32135, maxProcs: 400, maxNodes: 400,
		maxNodesText: "400 (48 interactive, 352 batch, 6 service, 10 I/O)",
		status:       map[model.Status]int{1: 31321, 0: 814}, zeroRuntime: 7, noEstimate: 32135, noReqProcs: 32135,
		noWait: 805, maxAlloc: 320},
	"SDSC-SP2-1998-4.2-cln": {jobs: 59715, maxProcs: 128, maxNodes: 128,
		status: map[model.Status]int{1: 43117, 5: 16598}, zeroRuntime: 10, noRuntime: 5671, noEstimate: 66, maxAlloc: 128},
	"CTC-SP2-1996-3.1-cln": {jobs: 77222, maxProcs: 338, maxNodes: 338, maxNodesText: "338 (batch partition; 512 total)",
		status: map[model.Status]int{1: 60553, 0: 16669}, zeroRuntime: 17, noEstimate: 6, noReqProcs: 77222, maxAlloc: 336},
	"LANL-CM5-1994-4.1-cln": {jobs: 122060, maxProcs: 1024, maxNodes: 1024,
		status: map[model.Status]int{1: 101692, 0: 20368}, zeroRuntime: 2, noEstimate: 11290, noReqProcs: 11329,
		noWait: 3, maxAlloc: 1024,
		allocs: map[int]int{32: 62384, 64: 23829, 128: 19516, 256: 7862, 512: 8460, 1024: 6, -1: 3}},
	"HPC2N-2002-2.2-cln": {jobs: 202871, maxProcs: 240, maxNodes: 240,
		status: map[model.Status]int{1: 201993}, noStatus: 878, noWait: 1, maxAlloc: 200},
	"SDSC-BLUE-2000-4.2-cln": {jobs: 243306, maxProcs: 1152, maxNodes: 144,
		status: map[model.Status]int{1: 195586, 5: 47718}, noStatus: 2, zeroRuntime: 26, noRuntime: 10744, maxAlloc: 1152},
}

// bigTrace reports whether a shared trace is skipped under -short.
func bigTrace(name string) bool { return sharedFacts[name].jobs > 150000 }

// readShared reads a shared trace in strict mode.
func readShared(t testing.TB, name string) *model.Trace {
	t.Helper()
	path := sharedtraces.Trace(t, name)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := NewReader(f)
	r.Name = path
	tr, err := model.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if a := r.Anomalies(); len(a) != 0 {
		t.Errorf("anomalies in a clean trace: %v", a)
	}
	return tr
}

func TestSharedTraces(t *testing.T) {
	for _, name := range sharedtraces.Names {
		t.Run(name, func(t *testing.T) {
			if testing.Short() && bigTrace(name) {
				t.Skip("large trace skipped in -short mode")
			}
			want, ok := sharedFacts[name]
			if !ok {
				t.Fatalf("no facts recorded for %s", name)
			}
			tr := readShared(t, name)
			h := &tr.Header
			if len(tr.Jobs) != want.jobs {
				t.Errorf("%d jobs, want %d", len(tr.Jobs), want.jobs)
			}
			if h.MaxProcs() != want.maxProcs || h.MaxNodes() != want.maxNodes {
				t.Errorf("MaxProcs %d MaxNodes %d, want %d %d", h.MaxProcs(), h.MaxNodes(), want.maxProcs, want.maxNodes)
			}
			if v, _ := h.Get(model.KeyMaxNodes); want.maxNodesText != "" && v != want.maxNodesText {
				t.Errorf("MaxNodes text %q, want %q", v, want.maxNodesText)
			}
			if v, _ := h.Get(model.KeyVersion); v != "2.2" {
				t.Errorf("Version %q, want 2.2", v)
			}
			if _, ok := h.Get("Acknowledge"); !ok {
				t.Error("header lost its Acknowledge line")
			}

			var got traceFacts
			got.jobs = len(tr.Jobs)
			got.status = map[model.Status]int{}
			allocs := map[int]int{}
			ids := make(map[int64]bool, len(tr.Jobs))
			var last model.Time
			for i := range tr.Jobs {
				j := &tr.Jobs[i]
				if j.Has(model.FieldStatus) {
					got.status[j.Status]++
				} else {
					got.noStatus++
				}
				switch {
				case !j.Has(model.FieldRuntime):
					got.noRuntime++
				case j.Runtime == 0:
					got.zeroRuntime++
				}
				if !j.Has(model.FieldEstimate) {
					got.noEstimate++
				}
				if !j.Has(model.FieldReqProcs) {
					got.noReqProcs++
				}
				if !j.Has(model.FieldWait) {
					got.noWait++
				}
				if j.Has(model.FieldAllocProcs) {
					got.maxAlloc = max(got.maxAlloc, j.AllocProcs)
					allocs[j.AllocProcs]++
				} else {
					allocs[-1]++
				}
				if j.Has(model.FieldPreceding) || j.Has(model.FieldThinkTime) {
					t.Errorf("job %d has field 17 or 18, which are -1 in every shared trace", j.ID)
				}
				if !j.Has(model.FieldJobID) || !j.Has(model.FieldSubmit) || ids[j.ID] {
					t.Fatalf("job %d: missing or repeated ID, or missing submit time", j.ID)
				}
				ids[j.ID] = true
				if j.Submit < last {
					t.Fatalf("job %d: submit time %v before %v", j.ID, j.Submit, last)
				}
				last = j.Submit
			}
			if want.status == nil {
				want.status = map[model.Status]int{}
			}
			if !reflect.DeepEqual(got.status, want.status) || got.noStatus != want.noStatus {
				t.Errorf("status mix %v, %d missing; want %v, %d missing", got.status, got.noStatus, want.status, want.noStatus)
			}
			if got.zeroRuntime != want.zeroRuntime || got.noRuntime != want.noRuntime {
				t.Errorf("run time 0: %d, missing: %d; want %d, %d", got.zeroRuntime, got.noRuntime, want.zeroRuntime, want.noRuntime)
			}
			if got.noEstimate != want.noEstimate || got.noReqProcs != want.noReqProcs || got.noWait != want.noWait {
				t.Errorf("missing estimates %d, requested procs %d, waits %d; want %d, %d, %d",
					got.noEstimate, got.noReqProcs, got.noWait, want.noEstimate, want.noReqProcs, want.noWait)
			}
			if got.maxAlloc != want.maxAlloc {
				t.Errorf("largest allocation %d, want %d", got.maxAlloc, want.maxAlloc)
			}
			if want.allocs != nil && !reflect.DeepEqual(allocs, want.allocs) {
				t.Errorf("allocations %v, want only partition sizes %v", allocs, want.allocs)
			}

			roundtrip(t, &tr.Header, tr.Jobs)
		})
	}
}

// TestSharedLenientAgrees checks that lenient mode reads a clean trace
// exactly as strict mode does.
func TestSharedLenientAgrees(t *testing.T) {
	name := sharedtraces.Small[0]
	strict := readShared(t, name)
	f, err := os.Open(sharedtraces.Trace(t, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := NewReader(f)
	r.Lenient = true
	for i := 0; ; i++ {
		j, err := r.Read()
		if errors.Is(err, io.EOF) {
			if i != len(strict.Jobs) {
				t.Errorf("lenient read %d jobs, strict %d", i, len(strict.Jobs))
			}
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(j, strict.Jobs[i]) {
			t.Fatalf("job %d differs", i)
		}
	}
}
