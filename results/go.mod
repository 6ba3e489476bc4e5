// Measurements and their notes, kept beside the code they explain but out of
// perfrun's module download: this folder, a module of its own, is not part
// of perfrun's module. Its one program, fidelity/costed/lockshape, builds
// here (go run ./fidelity/costed/lockshape).
module github.com/perfrun/perfrun/results

go 1.26
