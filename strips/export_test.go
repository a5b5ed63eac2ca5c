package strips

// RandomWalk is randomWalk, for the external tests.
var RandomWalk = randomWalk
