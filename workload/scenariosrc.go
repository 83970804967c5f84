package workload

import (
	"fmt"

	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/workload/scenario"
)

// Scenarios lists the scenarios a ScenarioSource can name (scenario.List).
func Scenarios() []scenario.Info { return scenario.List() }

// options converts s to the scenario package's options.
func (s *ScenarioSource) options() (scenario.Options, error) {
	o := scenario.Options{Tasks: s.Tasks, Machines: s.Machines, TaskLength: s.TaskLength.Time()}
	if s.Comm != "" {
		c, err := model.ParseComm(s.Comm)
		if err != nil {
			return o, err
		}
		o.Comm = c
	}
	return o, nil
}

// CheckScenario reports whether s names a scenario that accepts its
// options, by building it.
func CheckScenario(s *ScenarioSource) error {
	_, err := buildScenario(s)
	return err
}

func buildScenario(s *ScenarioSource) (*model.Trace, error) {
	if err := s.validate(); err != nil {
		return nil, err
	}
	o, err := s.options()
	if err != nil {
		return nil, err
	}
	return scenario.Build(s.Name, o)
}

// scenarioSource replays a built scenario on every pass.
type scenarioSource struct {
	t *model.Trace
}

func openScenario(s *ScenarioSource) (source, error) {
	t, err := buildScenario(s)
	if err != nil {
		return nil, err
	}
	if t.Header.MaxProcs() <= 0 {
		return nil, fmt.Errorf("scenario %s: the trace header has no MaxProcs", s.Name)
	}
	return &scenarioSource{t: t}, nil
}

func (s *scenarioSource) header() *model.Header { return &s.t.Header }
func (s *scenarioSource) inputs() []model.Input { return nil }
func (s *scenarioSource) close() error          { return nil }
func (s *scenarioSource) pass() (sourcePass, error) {
	return sourcePass{jobs: model.NewSliceReader(s.t)}, nil
}
