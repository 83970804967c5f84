package fileio

import (
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
