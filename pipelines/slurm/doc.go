// Package slurm runs a sweep's runs on a Slurm cluster as one job array
// (`replay sweep --slurm`): it writes the runs missing from the shared run
// cache (package pipelines) into a submission directory, submits them with
// sbatch, checks the user's own sbatch options against sbatch's table
// (CheckOptions), waits for the array's tasks and reports the failed ones
// with their logs. The items are then built from the cache as by a local
// sweep, so the results are the same bytes.
package slurm
