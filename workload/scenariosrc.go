package workload

import "errors"

// openScenario builds a scenario source. The scenario package has not
// landed yet.
func openScenario(s *ScenarioSource) (source, error) {
	return nil, errors.New("scenario sources are not available yet (package workload/scenario)")
}
