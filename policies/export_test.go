package policies

// CPUNow is cpuNow for the external test package's benchmarks.
var CPUNow = cpuNow
