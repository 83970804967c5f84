package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// ProgressOn reports whether progress may be drawn on w: w is a terminal,
// the environment is not CI's (CI set) and the terminal is not dumb. A
// command also keeps it off under -q.
func ProgressOn(w io.Writer) bool {
	return IsTerminal(w) && os.Getenv("CI") == "" && os.Getenv("TERM") != "dumb"
}

// progressEvery is how often a status line is redrawn, and how long a
// command runs before the first: GANGSIM_PROGRESS_INTERVAL (a Go duration,
// for tests) or one second, so that a command done within a second prints
// nothing.
func progressEvery() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("GANGSIM_PROGRESS_INTERVAL")); err == nil && d > 0 {
		return d
	}
	return time.Second
}

// StatusLine redraws one line of text in place on a terminal, every
// interval from the first on, with what render returns; on anything else
// it draws nothing. Stop clears the line. Its methods are safe for
// concurrent use.
type StatusLine struct {
	w       io.Writer
	render  func(elapsed time.Duration) string
	started time.Time
	mu      sync.Mutex
	drawn   bool
	stopped bool
	stop    chan struct{}
	done    chan struct{}
}

// StartStatus starts redrawing render's line on w when on is true (see
// ProgressOn); the first line comes after an interval.
func StartStatus(w io.Writer, on bool, render func(elapsed time.Duration) string) *StatusLine {
	s := &StatusLine{w: w, render: render, started: time.Now()}
	if !on {
		s.stopped = true
		return s
	}
	s.stop, s.done = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(s.done)
		t := time.NewTicker(progressEvery())
		defer t.Stop()
		for {
			select {
			case <-s.stop:
				return
			case <-t.C:
				s.Draw()
			}
		}
	}()
	return s
}

// NewStatusLine returns a status line that its caller draws (Show) when
// what it says changes, on w when on is true (see ProgressOn), instead of
// a ticker.
func NewStatusLine(w io.Writer, on bool) *StatusLine {
	return &StatusLine{w: w, started: time.Now(), stopped: !on}
}

// Draw redraws the line now with what its render function returns.
func (s *StatusLine) Draw() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.stopped {
		s.draw(s.render(time.Since(s.started)))
	}
}

// Show draws text as the line now.
func (s *StatusLine) Show(text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.stopped {
		s.draw(text)
	}
}

// draw draws text in place of the line, kept to the terminal's width so
// that it never wraps.
func (s *StatusLine) draw(text string) {
	if f, ok := s.w.(*os.File); ok {
		if cols := terminalWidth(f.Fd()); cols > 1 && len(text) >= cols {
			text = text[:cols-1]
		}
	}
	fmt.Fprintf(s.w, "\r%s\x1b[K", text)
	s.drawn = true
}

// Keep ends a line drawn with Show, leaving it on the terminal and moving
// to the next; the next Show starts a new line.
func (s *StatusLine) Keep() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.drawn {
		fmt.Fprintln(s.w)
		s.drawn = false
	}
}

// Stop ends the redrawing and clears the line, if one was drawn, so that
// what the command prints next starts on a clean line.
func (s *StatusLine) Stop() {
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		return
	}
	s.stopped = true
	if s.drawn {
		fmt.Fprint(s.w, "\r\x1b[K")
		s.drawn = false
	}
	s.mu.Unlock()
	if s.stop != nil { // drawn by a ticker
		close(s.stop)
		<-s.done
	}
}

// Progress counts the units of a batch of work ("runs") and draws a status
// line of them on a terminal: "replay sweep: 312 of 1300 runs done (40
// cached, 0 failed), 2m31s, about 8m left". On anything else, or when
// made quiet, it stays silent, so logs and pipes get only the summary the
// command prints. Its methods are safe for concurrent use.
type Progress struct {
	prefix, what         string
	total                int
	mu                   sync.Mutex
	done, cached, failed int
	line                 *StatusLine
}

// NewProgress returns the progress of total units of what ("runs"), drawn
// on w if ProgressOn(w) and not quiet, each line starting with prefix
// ("replay sweep").
func NewProgress(w io.Writer, total int, what, prefix string, quiet bool) *Progress {
	p := &Progress{prefix: prefix, what: what, total: total}
	p.line = StartStatus(w, !quiet && ProgressOn(w), p.render)
	return p
}

func (p *Progress) render(elapsed time.Duration) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var b strings.Builder
	if p.prefix != "" {
		b.WriteString(p.prefix + ": ")
	}
	fmt.Fprintf(&b, "%d of %d %s done (%d cached, %d failed), %s", p.done, p.total, p.what, p.cached, p.failed, Elapsed(elapsed))
	// Time left from the rate of the units made now: cached ones cost
	// nothing.
	if made := p.done - p.cached; made > 0 && p.done < p.total {
		left := time.Duration(float64(elapsed) / float64(made) * float64(p.total-p.done))
		b.WriteString(", about " + Elapsed(left) + " left")
	}
	return b.String()
}

// Done records one finished unit; cached says it was found already done.
func (p *Progress) Done(cached bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	if cached {
		p.cached++
	}
}

// Failed records a unit that failed.
func (p *Progress) Failed() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.failed++
}

// Finish clears the status line, if one was drawn; the progress draws no
// more.
func (p *Progress) Finish() { p.line.Stop() }

// Counts returns the units done so far and how many of them were cached.
func (p *Progress) Counts() (done, cached int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.done, p.cached
}

// Elapsed formats a duration for a person: "850ms", "42s", "3m05s",
// "1h12m".
func Elapsed(d time.Duration) string {
	switch {
	case d < time.Second:
		return d.Round(10 * time.Millisecond).String()
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Round(time.Second)/time.Second))
	case d < time.Hour:
		d = d.Round(time.Second)
		return fmt.Sprintf("%dm%02ds", int(d/time.Minute), int(d%time.Minute/time.Second))
	}
	d = d.Round(time.Minute)
	return fmt.Sprintf("%dh%02dm", int(d/time.Hour), int(d%time.Hour/time.Minute))
}
