package policies

import "github.com/gangsim/gangsim/sim"

// FCFS is first-come first-served batch scheduling: jobs start in arrival
// order, each as soon as it fits, and a job that does not fit blocks every
// job behind it.
type FCFS struct {
	e     *sim.Engine
	queue fifo
}

// NewFCFS returns an FCFS policy.
func NewFCFS() *FCFS { return &FCFS{} }

// Attach implements sim.Policy.
func (p *FCFS) Attach(e *sim.Engine) { p.e = e }

// Arrive implements sim.Policy.
func (p *FCFS) Arrive(j *sim.Job) { p.queue.push(j) }

// Complete implements sim.Policy.
func (p *FCFS) Complete(*sim.Job) {}

// Timer implements sim.Policy.
func (p *FCFS) Timer(int64) {}

// Schedule implements sim.Policy.
func (p *FCFS) Schedule() {
	n := 0
	for _, j := range p.queue.jobs {
		if p.e.Need(j) > p.e.Free() {
			break
		}
		p.e.Start(j)
		n++
	}
	p.queue.popFront(n)
}
