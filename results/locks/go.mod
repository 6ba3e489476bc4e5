// Experiment data, kept beside what it explains but out of perfrun's module
// download: a folder with a go.mod of its own is not part of the module.
module github.com/perfrun/perfrun/results/locks
