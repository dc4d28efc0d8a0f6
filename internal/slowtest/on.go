//go:build slow

package slowtest

// On reports whether the slow tests are asked for.
const On = true
