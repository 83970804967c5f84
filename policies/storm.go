package policies

import (
	"github.com/gangsim/gangsim/hwmodel"
	"github.com/gangsim/gangsim/model"
)

// Storm is what gang scheduling models of STORM, the resource manager on
// which every experiment of Frachtenberg's thesis ran (4.2): the mechanics
// of its machine manager (MM) and node managers (NMs), each switchable.
// The zero value models none of them: an idealised gang scheduler that
// acts the instant anything happens.
type Storm struct {
	// Tick: the MM acts only at its heartbeats, every quantum from time 0
	// ("the MM mode of operation is clock-based, operating only at regular
	// ticks", 4.2.1): a job that arrives is queued, jobs are placed, and a
	// job's termination is noticed and its processors freed only there
	// (the NMs report terminations, which the MM "inspects before issuing
	// the next strobe and deallocating resources", 4.2.2, step 7). A job
	// whose processes end between heartbeats keeps its processors until
	// the next one, and its outcome's End is then.
	Tick bool
	// Launch: a job placed in the matrix first has its binary transferred
	// to its nodes, then is executed; "the MM can issue commands and
	// receive the notification of events only at the beginning of a
	// timeslice. Therefore, both the binary transfer and the actual
	// execution take at least one timeslice" (4.3.1.1). Its processes run
	// from the first heartbeat at least max(quantum, transfer) after its
	// placement, plus the execution overhead T_exec (Eq. 4.7; the
	// hardware model's hwmodel.ManagerCosts, 10 ms measured on Wolverine,
	// 4.3.2.1). Without Tick the transfer is not rounded: placement +
	// transfer + T_exec.
	Launch bool
	// Keep: at a strobe an NM deschedules the process running on a
	// processor only if "another process occupies the next time slot"
	// (4.2.1, "Heartbeat/strobe"). A job whose processors are all free in
	// the next row goes on running in that row's slot, without a switch;
	// a job that loses any processor stops whole (its processes left
	// running would only wait for the others).
	Keep bool
	// BinaryBytes is the size of the binary Launch transfers. 0 (the
	// default): nothing to send, the transfer step still taking its
	// heartbeat. At 131 MB/s (Eq. 4.8) any binary under about 13 MB fits
	// in a 100 ms heartbeat.
	BinaryBytes int64
}

// stormParams documents the STORM parameters every gang-scheduled policy
// takes.
var stormParams = map[string]string{
	"storm":  "on or off: model STORM's managers (thesis 4.2): tick, launch and keep together (default on with a STORM cluster's hardware, the qsnet family's presets such as --hw crescendo; off otherwise)",
	"tick":   "true: the machine manager acts only at its heartbeats, every quantum: arrivals are queued, jobs placed and terminations noticed there, a job keeping its processors until its end is noticed (default: storm's)",
	"launch": "true: a placed job's binary is transferred, then the job executed, each step ending at a heartbeat at least a quantum later; its processes run from then plus the hardware's T_exec (default: storm's)",
	"keep":   "true: at a strobe a processor keeps its process unless another occupies the next slot there: a job whose processors are all free in the next row goes on in its slot (default: storm's)",
	"binary": "size in bytes of the binary launch transfers (default 0: the transfer takes one heartbeat)",
}

// stormConfig reads the STORM parameters: storm sets the default of tick,
// launch and keep, itself on by default when env's hardware is a STORM
// cluster (hwmodel.ManagerCosts).
func stormConfig(p Params, env Env) (Storm, error) {
	_, isStorm := hwmodel.Manager(env.Hardware.Costs)
	def := "off"
	if isStorm {
		def = "on"
	}
	all, err := p.Choice("storm", def, "on", "off")
	if err != nil {
		return Storm{}, err
	}
	on := all == "on"
	var s Storm
	if s.Tick, err = p.Bool("tick", on); err != nil {
		return s, err
	}
	if s.Launch, err = p.Bool("launch", on); err != nil {
		return s, err
	}
	if s.Keep, err = p.Bool("keep", on); err != nil {
		return s, err
	}
	b, err := p.Int("binary", 0, 0, 1<<40)
	s.BinaryBytes = int64(b)
	return s, err
}

// Any reports whether any mechanic is modelled.
func (s Storm) Any() bool { return s.Tick || s.Launch || s.Keep }

// heartbeatAfter returns the first heartbeat at or after t: the first
// multiple of q not before t.
func heartbeatAfter(t, q model.Time) model.Time {
	k := t / q
	if k*q < t {
		k++
	}
	return k * q
}

// launchReady returns when the processes of a job placed at t on nodes
// nodes start running under s (see Storm.Launch); t itself without Launch.
func (s Storm) launchReady(t, q model.Time, nodes int, costs hwmodel.Costs) model.Time {
	if !s.Launch {
		return t
	}
	var transfer, exec model.Time
	if m, ok := hwmodel.Manager(costs); ok {
		transfer, exec = m.BinaryTransfer(nodes, s.BinaryBytes), m.Exec()
	}
	if !s.Tick {
		return t + transfer + exec
	}
	return heartbeatAfter(t+max(transfer, q), q) + exec
}
