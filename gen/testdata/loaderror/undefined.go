package loaderror

// Other refers to something that does not exist: every type error of the
// package is reported, not only the first.
type Other struct {
	Field Missing // want `undefined: Missing`
}
