package runner

// WriterSizes is writerSizes, for the tests of package runner_test.
var WriterSizes = writerSizes
