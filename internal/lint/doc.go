// Package lint holds the repository's lint checks, run as tests so that
// "go test ./..." catches unformatted code and vet findings.
package lint
