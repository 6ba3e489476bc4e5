// Measurements and their notes, kept beside the code they explain but out of
// perfrun's module download: a folder with a go.mod of its own is not part
// of the module (the folders under it that have their own stay their own).
module github.com/perfrun/perfrun/results
