package cli

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// Progress draws a one-line progress bar on a terminal: "[#####.....] 5/10
// runs (2 cached) 0:12". On anything else it stays silent, so logs and pipes
// get only the final summary the command prints. Its methods are safe for
// concurrent use.
type Progress struct {
	w       io.Writer
	on      bool
	what    string
	total   int
	done    int
	cached  int
	started time.Time
	mu      sync.Mutex
	drawn   bool
}

// NewProgress returns a progress bar for total units of what ("runs")
// written to w, drawn only if w is a terminal.
func NewProgress(w io.Writer, total int, what string) *Progress {
	return &Progress{w: w, on: IsTerminal(w), what: what, total: total, started: time.Now()}
}

// Done records one finished unit; cached says it was found already done.
func (p *Progress) Done(cached bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	if cached {
		p.cached++
	}
	p.draw()
}

func (p *Progress) draw() {
	if !p.on {
		return
	}
	const width = 30
	filled := 0
	if p.total > 0 {
		filled = width * p.done / p.total
	}
	el := time.Since(p.started).Round(time.Second)
	fmt.Fprintf(p.w, "\r[%s%s] %d/%d %s (%d cached) %v ", strings.Repeat("#", filled),
		strings.Repeat(".", width-filled), p.done, p.total, p.what, p.cached, el)
	p.drawn = true
}

// Finish ends the bar's line, if it drew one.
func (p *Progress) Finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn {
		fmt.Fprintln(p.w)
		p.drawn = false
	}
}

// Counts returns the units done so far and how many of them were cached.
func (p *Progress) Counts() (done, cached int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.done, p.cached
}
