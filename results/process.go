package results

import "slices"

// ProcessFiles are the tables of the time model of failures (SPEC 15),
// which --format csv writes after breakeven.csv when the model is on.
var ProcessFiles = []string{"process.csv", "process_decisions.csv"}

// FilesOf returns Files, with the time model's tables after breakeven.csv
// when process is set and the formats hold csv.
func FilesOf(name string, formats []string, process bool) []string {
	out := Files(name, formats)
	if at := slices.Index(out, "breakeven.csv"); process && at >= 0 {
		out = slices.Insert(out, at+1, ProcessFiles...)
	}
	return out
}

// hasProcess reports whether the set holds the time model's tables.
func (s Set) hasProcess() bool { return s.Process.Columns != nil }

// Files returns the files the set writes in the given formats: Files of
// its name, with the time model's tables when it has them.
func (s Set) Files(formats []string) []string { return FilesOf(s.Name, formats, s.hasProcess()) }
