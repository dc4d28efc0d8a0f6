// Package folder keeps a run's output folder, OUT/<name>/.
// docs/outputs.md#the-output-folder says what a user sees of it.
//
// These are its rules.
//
// The folder holds the files of exactly one run: a set.
// A marker file, .ckptlab-set, lists the set's files.
// It also holds the ckptlab version and the hash of the resolved experiment.
// A set from before markers is known by the first line of its experiment.yaml.
//
// A run replaces the folder only when it is absent, empty or holds a set and nothing else.
// It refuses a symbolic link, a file, a folder holding anything else,
// and a folder holding one of the run's inputs.
// The refusal is a *RefusedError, found before any work (CheckReplace)
// and again under the lock.
//
// A run builds its set in a staging folder beside the set, OUT/.<name>.tmp-*.
// Package workbook renders the workbook, package results the other files.
// Then it swaps the two folders in one step (Replace).
// On Linux that is renameat2(RENAME_EXCHANGE).
// Elsewhere the old folder is renamed aside and the new one into place.
// OUT/<name>/ is then briefly absent, but never holds files of two runs.
//
// Files of a format the run does not write go with the old set.
// They stay when the old set is of the same experiment and version.
//
// OUT/<name>/shards/ is input to a merge, not part of a set.
// Every swap carries it over.
//
// A write holds the folder's exclusive lock throughout (Lock).
// The lock is flock(2) on OUT/.<name>.lock, or LockFileEx on Windows.
// So concurrent runs on one folder take turns.
// The lock file stays: removing it would let two runs lock two files.
//
// Under the lock no other write is in progress.
// So a staging folder found then is a killed run's leftover, and goes.
// Shards it took along are moved back first.
// Temporary shard files in shards/ go too.
//
// A reader takes the shared lock (CheckReplace, Check).
// A folder without a lock file has had no write yet, and a read makes none.
// It is read without the lock, and again under it if a write began meanwhile.
package folder
