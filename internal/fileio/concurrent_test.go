package fileio

import (
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/gangsim/gangsim/model"
)

type countOutcomes struct{ n int }

func (c *countOutcomes) Write(*model.Outcome) error { c.n++; return nil }
func (c *countOutcomes) Close() error               { return nil }

// TestAsyncOutcomesCloseAtOnce closes the writer before its goroutine has
// had a chance to run (one P, no yield): Close used to clear the channel
// the goroutine had not yet started ranging over, and both waited forever.
func TestAsyncOutcomesCloseAtOnce(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; i < 200; i++ {
			w := &countOutcomes{}
			a := NewAsyncOutcomes(w)
			if i%2 == 1 {
				a.Write(&model.Outcome{JobID: int64(i)})
			}
			if err := a.Close(); err != nil {
				t.Error(err)
			}
			if w.n != i%2 {
				t.Errorf("iteration %d: %d outcomes written", i, w.n)
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("Close right after NewAsyncOutcomes hangs")
	}
}

// failAfter fails every write from the n-th on.
type failAfter struct{ n, written int }

func (f *failAfter) Write(*model.Outcome) error {
	if f.written >= f.n {
		return errors.New("disk full")
	}
	f.written++
	return nil
}
func (f *failAfter) Close() error { return nil }

// TestAsyncOutcomesError injects a write error in the background writer:
// Write reports it a few chunks later at most (the producer stops
// early), Close reports it, and nothing after it is written.
func TestAsyncOutcomesError(t *testing.T) {
	for _, failAt := range []int{0, 1, chunkJobs + 5, 3 * chunkJobs} {
		w := &failAfter{n: failAt}
		a := NewAsyncOutcomes(w)
		var werr error
		n := 0
		for ; n < 100*chunkJobs && werr == nil; n++ {
			werr = a.Write(&model.Outcome{JobID: int64(n)})
		}
		if werr == nil || werr.Error() != "disk full" {
			t.Errorf("fail at %d: Write never reported the error (%d written)", failAt, n)
		}
		if err := a.Close(); err == nil || err.Error() != "disk full" {
			t.Errorf("fail at %d: Close = %v", failAt, err)
		}
		if err := a.Close(); err == nil {
			t.Errorf("fail at %d: a second Close forgot the error", failAt)
		}
		if w.written != failAt {
			t.Errorf("fail at %d: %d written", failAt, w.written)
		}
	}
	// Close alone reports an error of the last, partial chunk.
	a := NewAsyncOutcomes(&failAfter{n: 3})
	for i := 0; i < 10; i++ {
		a.Write(&model.Outcome{})
	}
	if err := a.Close(); err == nil {
		t.Error("Close lost the error of the last chunk")
	}
}
